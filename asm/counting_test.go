package asm

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/cpulevel"
)

// countingFilter returns words of a counting filter of lines lines with
// keys random hashes added (as the counting package does, without CAS),
// and a few random counters raised to high and saturated values.
func countingFilter(r *rand.Rand, lines uint64, k uint32, wide bool, keys int) []uint64 {
	words := make([]uint64, lines*CountingLineWords)
	for range keys {
		h := r.Uint64()
		line := words[NarrowBlock(h, lines)*CountingLineWords:]
		pos := NarrowPositions(h, k, CountingLogBits(wide))
		for _, q := range pos[:k] {
			word, shift := countingPlace(uint64(q), wide)
			line[word] |= 1 << shift
		}
	}
	for i := range words {
		if r.IntN(16) == 0 {
			words[i] |= 0xf0f0 << (8 * r.IntN(6))
		}
	}
	return words
}

// countingPlace returns where counter q of a line lives, as the layout
// says: its word and the bit offset of the counter in that word.
func countingPlace(q uint64, wide bool) (word, shift uint64) {
	if wide {
		return q >> 3 & 7, (q & 7) << 3
	}
	return q >> 4 & 7, (q & 15) << 2
}

// countingTestSpec is the batch test read straight off the layout: every
// position of NarrowPositions, its counter by countingPlace.
func countingTestSpec(words []uint64, lines uint64, k uint32, wide bool, h uint64) bool {
	line := words[NarrowBlock(h, lines)*CountingLineWords:][:CountingLineWords]
	pos := NarrowPositions(h, k, CountingLogBits(wide))
	counter := uint64(0xf)
	if wide {
		counter = 0xff
	}
	for _, q := range pos[:k] {
		word, shift := countingPlace(uint64(q), wide)
		if line[word]>>shift&counter == 0 {
			return false
		}
	}
	return true
}

// NarrowPositions is the slices of the multiplier rounds as the scheme's
// comment states them.
func TestNarrowPositions(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 1000 {
		h := r.Uint64()
		for _, logBits := range []uint{6, 7} {
			k := uint32(r.IntN(engine.MaxK) + 1)
			pos := NarrowPositions(h, k, logBits)
			per := 64 / logBits
			for i := range uint(k) {
				g := h * BlockedMul
				for range i / per {
					g *= BlockedMul
				}
				want := g >> (64 - logBits*(i%per+1)) & (1<<logBits - 1)
				if uint64(pos[i]) != want {
					t.Fatalf("h %#x logBits %d probe %d: %d, want %d", h, logBits, i, pos[i], want)
				}
			}
			for i := k; i < engine.MaxK; i++ {
				if pos[i] != 0 {
					t.Fatalf("probe %d past k = %d is %d", i, k, pos[i])
				}
			}
		}
	}
}

// The Go batch test (the single-key code) answers as the specification.
func TestCountingGenericMatchesSpec(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, wide := range []bool{false, true} {
		for _, k := range []uint32{1, 2, 6, 9, 10, 11, 18, 19, 20, 21, 33, engine.MaxK} {
			words := countingFilter(r, 37, k, wide, 37*128/int(k))
			hs := make([]uint64, 2000)
			for i := range hs {
				hs[i] = r.Uint64()
			}
			out := make([]bool, len(hs))
			hits := countingTestHashesGeneric(words, 37, k, wide, hs, out)
			want := 0
			for i, h := range hs {
				ok := countingTestSpec(words, 37, k, wide, h)
				if ok != out[i] {
					t.Fatalf("wide %v k %d hash %#x: %v, spec %v", wide, k, h, out[i], ok)
				}
				if ok {
					want++
				}
			}
			if hits != want || (k <= 20 && (hits == 0 || hits == len(hs))) {
				t.Fatalf("wide %v k %d: %d hits, spec %d (of %d)", wide, k, hits, want, len(hs))
			}
		}
	}
}

// checkCountingTest compares the kernel in use with the Generic twin.
func checkCountingTest(t *testing.T, words []uint64, lines uint64, k uint32, wide bool, hs []uint64) {
	t.Helper()
	want := make([]bool, len(hs)+1)
	got := make([]bool, len(hs)+1)
	got[len(hs)], want[len(hs)] = true, true // a sentinel past the end stays
	wantHits := countingTestHashesGeneric(words, lines, k, wide, hs, want[:len(hs)])
	gotHits := CountingTestHashes(words, lines, k, wide, hs, got[:len(hs)])
	if gotHits != wantHits || !slices.Equal(got, want) {
		t.Fatalf("%v, %d lines, k %d, wide %v, %d hashes: %d hits vs generic %d (answers equal: %v)",
			level, lines, k, wide, len(hs), gotHits, wantHits, slices.Equal(got, want))
	}
}

func TestCountingTestMatchesGeneric(t *testing.T) {
	forEachLevel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		for _, wide := range []bool{false, true} {
			for _, c := range []struct {
				lines uint64
				k     uint32
				keys  int
			}{{1, 1, 3}, {1, 7, 20}, {3, 9, 10}, {17, 10, 100}, {1000, 18, 5000}, {64, engine.MaxK, 20}, {5, 16, 50}, {9, 11, 80}, {4096, 6, 40000}, {100, 19, 300}, {100, 20, 300}, {100, 21, 300}} {
				words := countingFilter(r, c.lines, c.k, wide, c.keys)
				for _, n := range []int{0, 1, 7, 8, 9, 12, 13, 15, 16, 17, 63, 64, 65, 1000} {
					hs := make([]uint64, n)
					for i := range hs {
						hs[i] = r.Uint64()
					}
					checkCountingTest(t, words, c.lines, c.k, wide, hs)
				}
			}
		}
	})
}

func TestCountingTestDoesNotAllocate(t *testing.T) {
	forEachLevel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 4))
		words := countingFilter(r, 100, 8, false, 500)
		hs := make([]uint64, 100)
		out := make([]bool, 100)
		if a := testing.AllocsPerRun(10, func() { CountingTestHashes(words, 100, 8, false, hs, out) }); a != 0 {
			t.Errorf("%v allocates %.1f times", level, a)
		}
	})
}

func FuzzCountingTest(f *testing.F) {
	f.Add(uint64(1), uint64(5), uint8(7), false, 20, 33)
	f.Add(uint64(2), uint64(300), uint8(64), true, 1000, 17)
	f.Fuzz(func(t *testing.T, seed, lines uint64, k uint8, wide bool, keys, n int) {
		lines = lines%2048 + 1
		k = k%engine.MaxK + 1
		keys, n = keys&4095, n&2047
		r := rand.New(rand.NewPCG(seed, lines))
		words := countingFilter(r, lines, uint32(k), wide, keys)
		hs := make([]uint64, n)
		for i := range hs {
			hs[i] = r.Uint64()
			if i%3 == 0 && keys > 0 {
				// replay a hash from the same generator state family: present keys
				hs[i] = rand.New(rand.NewPCG(seed, lines)).Uint64()
			}
		}
		for _, l := range cpulevel.Available() {
			restore, err := cpulevel.Use(l)
			if err != nil {
				t.Fatal(err)
			}
			checkCountingTest(t, words, lines, uint32(k), wide, hs)
			restore()
		}
	})
}

// CountingPrefetch changes nothing at any level, for both widths, hashes
// on the first and last lines and batch sizes around the group sizes,
// without allocating; bad geometry panics. (A prefetch cannot fault, so
// its address arithmetic is checked where it is shared: the line pointer
// of the test kernels, bit-identical to Generic above.)
func TestCountingPrefetch(t *testing.T) {
	forEachLevel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 6))
		for _, wide := range []bool{false, true} {
			for _, lines := range []uint64{1, 3, 1000} {
				words := countingFilter(r, lines, 6, wide, 200)
				want := slices.Clone(words)
				for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 100} {
					hs := make([]uint64, n)
					for i := range hs {
						hs[i] = r.Uint64()
					}
					if n > 1 {
						hs[0], hs[1] = 0, ^uint64(0)
					}
					CountingPrefetch(words, lines, hs)
					if !slices.Equal(words, want) {
						t.Fatalf("%v: prefetch of %d hashes changed the filter", level, n)
					}
					if a := testing.AllocsPerRun(5, func() { CountingPrefetch(words, lines, hs) }); a != 0 {
						t.Errorf("%v allocates %.1f times", level, a)
					}
				}
			}
		}
		defer func() {
			if recover() == nil {
				t.Error("prefetch over fewer words than lines need did not panic")
			}
		}()
		CountingPrefetch(make([]uint64, 7), 1, []uint64{1})
	})
}
