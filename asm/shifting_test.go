package asm

import (
	"math/rand/v2"
	"testing"

	"github.com/filterengine/filterengine/internal/cpulevel"
	"github.com/filterengine/filterengine/internal/hashing"
)

// randomShiftingArray returns a padded ShBF_M array of m positions whose
// bits are set with probability about fill, so that tests see both hits
// and misses.
func randomShiftingArray(r *rand.Rand, m uint64, fill float64) []uint64 {
	w := make([]uint64, (m-1)/64+2)
	for i := range w {
		var v uint64
		for b := range 64 {
			if r.Float64() < fill {
				v |= 1 << b
			}
		}
		w[i] = v
	}
	return w
}

var shiftingSizes = []int{0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000}

// checkShiftingLevel compares the kernel in use with shiftingTestHashesGeneric on
// one array and batch.
func checkShiftingLevel(t *testing.T, words []uint64, m uint64, pairs uint32, hs []uint64) {
	t.Helper()
	want := make([]bool, len(hs))
	got := make([]bool, len(hs)+1)
	got[len(hs)] = true // the sentinel past the batch must survive
	wantHits := shiftingTestHashesGeneric(words, m, pairs, hs, want)
	gotHits := ShiftingTestHashes(words, m, pairs, hs, got[:len(hs)])
	if gotHits != wantHits {
		t.Fatalf("m=%d pairs=%d n=%d: %d hits, generic %d", m, pairs, len(hs), gotHits, wantHits)
	}
	for i := range hs {
		if got[i] != want[i] {
			t.Fatalf("m=%d pairs=%d n=%d: out[%d] = %v, generic %v (h=%#x)", m, pairs, len(hs), i, got[i], want[i], hs[i])
		}
	}
	if !got[len(hs)] {
		t.Fatalf("m=%d n=%d: kernel wrote past the batch", m, len(hs))
	}
}

func TestShiftingTestMatchesGeneric(t *testing.T) {
	forEachLevel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 1))
		// m values around word and byte edges, and fills from sparse to
		// nearly full (m above 2^32, the multiply's high half, is
		// TestShiftingTestLargeM's, which -short skips).
		for _, m := range []uint64{1, 2, 7, 8, 63, 64, 65, 1000, 1 << 16, 123457} {
			for _, fill := range []float64{0.3, 0.8, 0.97} {
				words := randomShiftingArray(r, m, fill)
				for _, pairs := range []uint32{1, 2, 5, 32} {
					for _, n := range shiftingSizes {
						hs := make([]uint64, n)
						for i := range hs {
							hs[i] = r.Uint64()
						}
						checkShiftingLevel(t, words, m, pairs, hs)
					}
				}
			}
		}
	})
}

// TestShiftingTestLargeM exercises the high half of the multiply-high
// (m above 2^32, 512 MiB of address space): only the words the probes of
// the hashes of the first half touch are set to ones, so those hashes hit
// if and only if the kernel computes the same positions. Untouched pages
// of the fresh allocation are never materialised.
func TestShiftingTestLargeM(t *testing.T) {
	if testing.Short() {
		t.Skip("512 MiB of address space")
	}
	const m = 1<<32 + 123457
	words := make([]uint64, (m-1)/64+2)
	r := rand.New(rand.NewPCG(5, 2))
	const pairs = 5
	hs := make([]uint64, 1000)
	for i := range hs {
		hs[i] = r.Uint64()
		if i%2 == 0 {
			a, b := hs[i], hs[i]<<32|hs[i]>>32
			for range pairs {
				pos := hashing.Reduce(a, m)
				words[pos>>6], words[pos>>6+1] = ^uint64(0), ^uint64(0)
				a += b
				b += ShiftingPhi
			}
		}
	}
	forEachLevel(t, func(t *testing.T) {
		for _, n := range shiftingSizes {
			checkShiftingLevel(t, words, m, pairs, hs[:n])
		}
		out := make([]bool, len(hs))
		if hits := ShiftingTestHashes(words, m, pairs, hs, out); hits < len(hs)/2 {
			t.Fatalf("%d hits, want at least the %d planted keys", hits, len(hs)/2)
		}
	})
}

func FuzzShiftingTestHashes(f *testing.F) {
	f.Add(uint64(1000), uint8(5), uint64(1), 0.5, 17)
	f.Add(uint64(1), uint8(1), uint64(0), 0.9, 9)
	f.Fuzz(func(t *testing.T, m uint64, pairs uint8, seed uint64, fill float64, n int) {
		m = m%100000 + 1
		pairs = pairs%32 + 1
		n = int(uint(n) % 300)
		if !(fill >= 0 && fill <= 1) {
			fill = 0.5
		}
		r := rand.New(rand.NewPCG(seed, 3))
		words := randomShiftingArray(r, m, fill)
		hs := make([]uint64, n)
		for i := range hs {
			hs[i] = r.Uint64()
		}
		for _, l := range cpulevel.Available() {
			restore, err := cpulevel.Use(l)
			if err != nil {
				t.Fatal(err)
			}
			checkShiftingLevel(t, words, m, uint32(pairs), hs)
			restore()
		}
	})
}

func TestShiftingTestAllocs(t *testing.T) {
	forEachLevel(t, func(t *testing.T) {
		words := make([]uint64, (1000-1)/64+2)
		hs := make([]uint64, 1000)
		out := make([]bool, len(hs))
		if a := testing.AllocsPerRun(10, func() { ShiftingTestHashes(words, 1000, 5, hs, out) }); a != 0 {
			t.Fatalf("%v allocations per batch", a)
		}
	})
}

func TestShiftingTestPanics(t *testing.T) {
	for _, c := range []struct {
		name  string
		words []uint64
		m     uint64
		pairs uint32
		out   []bool
	}{
		{"m=0", make([]uint64, 2), 0, 1, make([]bool, 4)},
		{"no pairs", make([]uint64, 2), 64, 0, make([]bool, 4)},
		{"no padding", make([]uint64, 1), 64, 1, make([]bool, 4)},
		{"short out", make([]uint64, 2), 64, 1, make([]bool, 3)},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			ShiftingTestHashes(c.words, c.m, c.pairs, make([]uint64, 4), c.out)
		})
	}
}

// TestShiftingWindowForms: the aligned two-word form (the portable build's
// ShiftingWindow) answers bits 0 .. 56 as this build's ShiftingWindow
// does, at every bit position of a random array.
func TestShiftingWindowForms(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	words := make([]uint64, 9)
	for i := range words {
		words[i] = r.Uint64()
	}
	const low57 = 1<<57 - 1
	for pos := uint64(0); pos < 64*uint64(len(words)-1); pos++ {
		if a, b := shiftingWindowAligned(words, pos)&low57, ShiftingWindow(words, pos)&low57; a != b {
			t.Fatalf("pos %d: aligned %#x, ShiftingWindow %#x", pos, a, b)
		}
	}
}
