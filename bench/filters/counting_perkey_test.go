package filters

import (
	"encoding/binary"
	"fmt"
	"sync"
	"testing"

	"github.com/filterengine/filterengine/counting"
	boom "github.com/tylertreat/BoomFilters"
)

// BenchmarkCountingPerKey compares our counting filter with
// tylertreat/BoomFilters' CountingBloomFilter (4-bit buckets) one call
// per key, in one process: 8-byte []byte keys (hashing included), p =
// 1%, streaming over n distinct keys of a filter sized for n. Test asks
// member keys of a full filter, Add fills an empty filter, Remove empties
// a full one. Run with -benchtime=1000000x (or any count <= n) so that no
// run wraps around its keys:
//
//	go test -run '^$' -bench CountingPerKey -benchtime 1000000x -count 3 ./filters
func BenchmarkCountingPerKey(b *testing.B) {
	const p = 0.01
	for _, n := range []int{1_000_000, 10_000_000} {
		keys := perKeyKeys(n)
		for _, op := range []string{"Test", "Add", "Remove"} {
			for _, lib := range []string{"ours", "boom"} {
				b.Run(fmt.Sprintf("%s/%s/n=%s", op, lib, shortN(n)), func(b *testing.B) {
					if b.N > n {
						b.Skipf("b.N = %d above n = %d: pass -benchtime=%dx or less", b.N, n, n)
					}
					add, test, remove := perKeyFilter(b, lib, n, p, op != "Add")
					key := func(i int) []byte { return keys[8*i : 8*i+8 : 8*i+8] }
					b.ResetTimer()
					miss := 0
					switch op {
					case "Test":
						for i := range b.N {
							if !test(key(i)) {
								miss++
							}
						}
					case "Add":
						for i := range b.N {
							add(key(i))
						}
					case "Remove":
						for i := range b.N {
							if !remove(key(i)) {
								miss++
							}
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/key")
					if miss != 0 {
						b.Fatalf("%d of %d member keys absent", miss, b.N)
					}
				})
			}
		}
	}
}

var perKeyKeyCache sync.Map

// perKeyKeys returns n distinct 8-byte keys back to back.
func perKeyKeys(n int) []byte {
	if v, ok := perKeyKeyCache.Load(n); ok {
		return v.([]byte)
	}
	flat := make([]byte, 8*n)
	for i := range n {
		binary.LittleEndian.PutUint64(flat[8*i:], uint64(i)*0x9e3779b97f4a7c15+12345)
	}
	perKeyKeyCache.Store(n, flat)
	return flat
}

// perKeyFilter returns the per-key calls of a fresh filter of lib sized
// for n at p, holding all n keys when full.
func perKeyFilter(b *testing.B, lib string, n int, p float64, full bool) (add func([]byte), test, remove func([]byte) bool) {
	keys := perKeyKeys(n)
	switch lib {
	case "ours":
		f, err := counting.New(uint64(n), p)
		if err != nil {
			b.Fatal(err)
		}
		if full {
			for i := range n {
				f.Add(keys[8*i : 8*i+8])
			}
		}
		return f.Add, f.Test, f.Remove
	default:
		f := boom.NewCountingBloomFilter(uint(n), 4, p)
		if full {
			for i := range n {
				f.Add(keys[8*i : 8*i+8])
			}
		}
		return func(k []byte) { f.Add(k) }, f.Test, f.TestAndRemove
	}
}
