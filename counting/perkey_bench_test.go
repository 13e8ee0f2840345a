package counting

import (
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/perkey"
)

// BenchmarkPerKey is perkey.Table for 4-bit counters at p = 1%, beside
// op=Remove: each key of the stream removed, one call each, from a filter
// that holds them all (refilled when the stream wraps):
//
//	go test -run '^$' -bench PerKey ./counting
func BenchmarkPerKey(b *testing.B) {
	perkey.Table(b, func(n uint64) (*Filter, error) { return New(n, 0.01) })
	for _, n := range perkey.Sizes {
		members := perkey.New(0, n)
		full, err := New(uint64(n), 0.01)
		if err != nil {
			b.Fatal(err)
		}
		full.AddUint64s(members.Ints)
		f := full.Clone()
		b.Run(perkey.Name(n)+"/op=Remove", func(b *testing.B) {
			perkey.Run(b, n, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					if !f.Remove(members.At(i)) {
						b.Fatal("remove of a member failed")
					}
				}
			}, func() { copy(f.words, full.words) })
		})
	}
}
