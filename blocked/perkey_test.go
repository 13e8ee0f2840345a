package blocked

import (
	"testing"

	"github.com/filterengine/filterengine/internal/perkey"
)

// BenchmarkPerKey is perkey.Bench, plus, labelled batch, AddKeys over
// the same keys in chunks of perkey.Chunk:
//
//	go test -run '^$' -bench PerKey ./blocked
//	go test -tags purego -run '^$' -bench 'PerKey/.*/op=TestHash' ./blocked
func BenchmarkPerKey(b *testing.B) {
	keys := make([][]byte, perkey.Chunk)
	perkey.Bench(b, func(n uint64, p float64) (*Filter, error) { return New(n, p) },
		func(members *perkey.Keys, g **Filter, reset func()) []perkey.Op {
			return []perkey.Op{{Name: "batch/AddKeys", Run: func(lo, hi int) {
				for i := lo; i < hi; i++ {
					keys[i-lo] = members.At(i)
				}
				(*g).AddKeys(keys[:hi-lo])
			}, Reset: reset}}
		})
}
