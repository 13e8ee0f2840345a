package counting

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/engine"
)

// widths runs f for 4-bit and 8-bit counters.
func widths(t *testing.T, f func(t *testing.T, bits int)) {
	t.Helper()
	for _, bits := range []int{4, 8} {
		t.Run(map[int]string{4: "4bit", 8: "8bit"}[bits], func(t *testing.T) { f(t, bits) })
	}
}

// randomHashes returns n hashes from a seeded generator.
func randomHashes(n int, seed uint64) []uint64 {
	r := rand.New(rand.NewPCG(seed, seed^0x5bd1e995))
	hs := make([]uint64, n)
	for i := range hs {
		hs[i] = r.Uint64()
	}
	return hs
}

func mustNew(t testing.TB, n uint64, p float64, opts ...engine.Option) *Filter {
	t.Helper()
	f, err := New(n, p, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// words returns a copy of the filter's counters.
func (f *Filter) wordsCopy() []uint64 { return slices.Clone(f.words) }

// place returns where counter q of a line lives, as the layout of the
// package doc says: its word and the bit offset in that word.
func place(q uint64, wide bool) (word, shift uint64) {
	if wide {
		return q >> 3 & 7, (q & 7) << 3
	}
	return q >> 4 & 7, (q & 15) << 2
}
