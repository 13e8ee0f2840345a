package interop

import (
	"fmt"
	"testing"
)

// benchBitsPerKey is the budget of the benchmarks (k = 6).
const benchBitsPerKey = 10

// BenchmarkFormats times each format's writer (all n keys into one
// filter, per key) and its per-key reader on members and non-members,
// ours against the peer on the same 16-byte keys, streaming over n
// distinct keys:
//
//	go test -run '^$' -bench Formats -count 6 ./interop | benchstat -col /impl -
func BenchmarkFormats(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		members, absent := Keys(n, 1), Keys(n, 2)
		for _, im := range Impls() {
			prefix := fmt.Sprintf("format=%s/n=%d", im.Format, n)
			b.Run(prefix+"/op=build/impl="+im.Name, func(b *testing.B) {
				var dst []byte
				keys := 0
				for b.Loop() {
					dst = im.Build(dst[:0], members, benchBitsPerKey)
					keys += n
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(keys), "ns/key")
			})
			f := im.Build(nil, members, benchBitsPerKey)
			for _, set := range []struct {
				name string
				keys [][]byte
			}{{"member", members}, {"nonmember", absent}} {
				b.Run(prefix+"/op=maymatch-"+set.name+"/impl="+im.Name, func(b *testing.B) {
					keys, hits, i := 0, 0, 0
					for b.Loop() {
						if im.MayMatch(f, set.keys[i]) {
							hits++
						}
						if i++; i == n {
							i = 0
						}
						keys++
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(keys), "ns/key")
					if set.name == "member" && hits != keys {
						b.Fatalf("%d of %d members found", hits, keys)
					}
				})
			}
		}
	}
}
