package asm

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/engine"
)

// randomFilters returns filters of the given line counts, each filled to
// about fill/8 (see randomFilter).
func randomFilters(r *rand.Rand, lines []int, fill int) [][]uint64 {
	fs := make([][]uint64, len(lines))
	for i, l := range lines {
		fs[i] = randomFilter(r, l, fill)
	}
	return fs
}

// compareMulti checks the current level against the generic twin, and the
// twin against testing each filter alone.
func compareMulti(t testing.TB, filters [][]uint64, k uint32, hs []uint64) {
	t.Helper()
	want := make([]bool, len(hs)+1)
	got := make([]bool, len(hs)+1)
	wantHits := blockedTestSetHashesGeneric(filters, k, hs, want[:len(hs)])
	set := NewBlockedSet(filters, k)
	if hits := set.TestHashes(hs, got); hits != wantHits || !slices.Equal(got, want) {
		t.Fatalf("%s: BlockedSet.TestHashes(%d filters, k=%d, n=%d) = %d hits, generic %d (answers equal: %v)",
			Kernel(), len(filters), k, len(hs), hits, wantHits, slices.Equal(got, want))
	}
	for i, h := range hs {
		if got, gen := set.TestHash(h), blockedTestSetHashGeneric(filters, k, h); got != want[i] || gen != want[i] {
			t.Fatalf("%s: BlockedSet.TestHash(key %d of %d, %d filters, k=%d) = %v, generic single-key %v, batch %v",
				Kernel(), i, len(hs), len(filters), k, got, gen, want[i])
		}
	}
	one := make([]bool, len(hs))
	any := make([]bool, len(hs))
	for _, w := range filters {
		blockedTestHashesGeneric(w, k, hs, one)
		for i := range any {
			any[i] = any[i] || one[i]
		}
	}
	if !slices.Equal(any, want[:len(hs)]) {
		t.Fatalf("blockedTestSetHashesGeneric differs from the filters tested one by one")
	}
}

var multiLines = [][]int{{}, {1}, {3, 1}, {64, 64, 64, 64}, {1 << 15, 1 << 14, 1 << 15, 5, 1}, {7, 1 << 15, 2, 9, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43}}

func TestBlockedMultiKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	forEachLevel(t, func(t *testing.T) {
		for _, lines := range multiLines {
			for _, k := range []uint32{1, 6, 8, 9, 12, 16, 64} {
				for _, fill := range []int{0, 6, 8} {
					fs := randomFilters(r, lines, fill)
					for _, n := range blockedSizes {
						hs := make([]uint64, n)
						for i := range hs {
							hs[i] = r.Uint64()
						}
						compareMulti(t, fs, k, hs)
					}
				}
			}
		}
	})
}

func TestBlockedMultiBadArgs(t *testing.T) {
	for name, fs := range map[string][][]uint64{
		"empty filter": {make([]uint64, 8), nil},
		"partial line": {make([]uint64, 12)},
		"too many":     slices.Repeat([][]uint64{make([]uint64, 8)}, blockedMaxFilters+1),
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewBlockedSet: %s accepted", name)
				}
			}()
			NewBlockedSet(fs, 8)
		}()
	}
}

func TestBlockedSetZero(t *testing.T) {
	var s BlockedSet
	out := []bool{true, true}
	if s.TestHash(1) || s.TestHashes([]uint64{1, 2}, out) != 0 || out[0] || out[1] {
		t.Fatal("the zero BlockedSet holds a key")
	}
}

func FuzzBlockedMultiKernels(f *testing.F) {
	f.Add(uint8(8), uint8(3), uint16(3), uint8(6), []byte("0123456789abcdef01234567"))
	f.Add(uint8(10), uint8(0), uint16(1), uint8(0), []byte{})
	f.Fuzz(func(t *testing.T, k, nf uint8, lines uint16, fill uint8, data []byte) {
		kk := uint32(k)%engine.MaxK + 1
		r := rand.New(rand.NewPCG(uint64(lines), uint64(fill)))
		ls := make([]int, int(nf)%20)
		for i := range ls {
			ls[i] = int(lines%300) + i + 1
		}
		fs := randomFilters(r, ls, int(fill%9))
		fuzzEachLevel(t, data, func(hs []uint64) {
			compareMulti(t, fs, kk, hs)
		})
	})
}

// compareStride checks the current level against the generic twin, and
// the twin against the multi-filter test of the same filters, fs (words
// deinterleaved).
func compareStride(t testing.TB, words []uint64, fs [][]uint64, gens int, k uint32, hs []uint64) {
	t.Helper()
	want := make([]bool, len(hs)+1)
	got := make([]bool, len(hs)+1)
	wantHits := blockedTestStrideHashesGeneric(words, gens, k, hs, want[:len(hs)])
	if hits := BlockedTestStrideHashes(words, gens, k, hs, got); hits != wantHits || !slices.Equal(got, want) {
		t.Fatalf("%s: BlockedTestStrideHashes(%d words, %d filters, k=%d, n=%d) = %d hits, generic %d", Kernel(), len(words), gens, k, len(hs), hits, wantHits)
	}
	lines := len(words) / gens / 8
	for i, h := range hs {
		if BlockedTestStrideHash(words, gens, h, k) != want[i] || BlockedTestStrideLinesHash(words, lines, gens, h, k) != want[i] {
			t.Fatalf("BlockedTestStrideHash or BlockedTestStrideLinesHash(hs[%d]) differs from the batch test", i)
		}
	}
	multi := make([]bool, len(hs))
	blockedTestSetHashesGeneric(fs, k, hs, multi)
	if !slices.Equal(multi, want[:len(hs)]) {
		t.Fatal("blockedTestStrideHashesGeneric differs from the multi-filter test")
	}
}

// deinterleave returns the gens strided filters in words as separate
// blocked filters.
func deinterleave(words []uint64, gens int) [][]uint64 {
	lines := len(words) / gens / 8
	fs := make([][]uint64, gens)
	for g := range fs {
		fs[g] = make([]uint64, lines*8)
		for j := range lines {
			copy(fs[g][j*8:j*8+8], words[(j*gens+g)*8:])
		}
	}
	return fs
}

func TestBlockedStrideKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	forEachLevel(t, func(t *testing.T) {
		for _, gens := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 17} {
			for _, lines := range []int{1, 3, 64, 1 << 14} {
				for _, k := range []uint32{1, 6, 8, 9, 16, 64} {
					for _, fill := range []int{0, 6, 8} {
						words := randomFilter(r, lines*gens, fill)
						fs := deinterleave(words, gens)
						for _, n := range blockedSizes {
							hs := make([]uint64, n)
							for i := range hs {
								hs[i] = r.Uint64()
							}
							compareStride(t, words, fs, gens, k, hs)
						}
					}
				}
			}
		}
	})
}

func TestBlockedStrideFound(t *testing.T) {
	forEachLevel(t, func(t *testing.T) {
		words := make([]uint64, 4*40*8)
		hs := make([]uint64, 1000)
		for i := range hs {
			hs[i] = uint64(i) * 0x9e3779b97f4a7c15
		}
		BlockedAddStrideHashes(words, 4, 2, 6, hs)
		one := make([]uint64, 320)
		BlockedAddHashes(one, 6, hs)
		for g, f := range deinterleave(words, 4) {
			if want := g == 2; slices.Equal(f, one) != want {
				t.Fatalf("filter %d of the strided add equals one blocked filter's adds: %v", g, !want)
			}
		}
		out := make([]bool, len(hs))
		if hits := BlockedTestStrideHashes(words, 4, 6, hs, out); hits != len(hs) {
			t.Fatalf("%d of %d added keys found", hits, len(hs))
		}
		if a := testing.AllocsPerRun(10, func() { BlockedTestStrideHashes(words, 4, 6, hs, out) }); a != 0 {
			t.Errorf("BlockedTestStrideHashes allocates %v times per call", a)
		}
		for _, bad := range []func(){
			func() { BlockedTestStrideHashes(words, 0, 6, nil, nil) },
			func() { BlockedTestStrideHashes(words, 3, 6, nil, nil) },
			func() { BlockedTestStrideHashes(words[:8*3], 3, 0, nil, nil) },
			func() { BlockedAddStrideHashes(words, 4, 4, 6, hs) },
			func() { BlockedAddStrideHashes(words, 4, -1, 6, hs) },
			func() { BlockedAddStrideHashes(words, 3, 0, 6, hs) },
		} {
			func() {
				defer func() {
					if recover() == nil {
						t.Error("bad strided arguments accepted")
					}
				}()
				bad()
			}()
		}
	})
}

func FuzzBlockedStrideKernels(f *testing.F) {
	f.Add(uint8(6), uint8(4), uint16(3), uint8(6), []byte("0123456789abcdef01234567"))
	f.Fuzz(func(t *testing.T, k, gens uint8, lines uint16, fill uint8, data []byte) {
		kk := uint32(k)%engine.MaxK + 1
		g := int(gens)%10 + 1
		words := randomFilter(rand.New(rand.NewPCG(uint64(lines), uint64(fill))), (int(lines%300)+1)*g, int(fill%9))
		fs := deinterleave(words, g)
		fuzzEachLevel(t, data, func(hs []uint64) {
			compareStride(t, words, fs, g, kk, hs)
		})
	})
}

// compareStrideAdd checks the current level's strided add into filter gen
// against the generic twin's on a copy of words.
func compareStrideAdd(t testing.TB, words []uint64, gens, gen int, k uint32, hs []uint64) {
	t.Helper()
	want := slices.Clone(words)
	got := slices.Clone(words)
	blockedAddStrideHashesGeneric(want, gens, gen, k, hs)
	BlockedAddStrideHashes(got, gens, gen, k, hs)
	if !slices.Equal(got, want) {
		t.Fatalf("%s: BlockedAddStrideHashes(%d words, %d filters, filter %d, k=%d, n=%d) differs from the generic twin", Kernel(), len(words), gens, gen, k, len(hs))
	}
}

func TestBlockedAddStrideKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	forEachLevel(t, func(t *testing.T) {
		for _, gens := range []int{1, 2, 3, 4, 9} {
			for _, lines := range []int{1, 3, 64, 1 << 14} {
				for _, k := range []uint32{1, 6, 8, 9, 64} {
					words := randomFilter(r, lines*gens, 3)
					for _, n := range blockedSizes {
						hs := make([]uint64, n)
						for i := range hs {
							hs[i] = r.Uint64()
						}
						compareStrideAdd(t, words, gens, n%gens, k, hs)
					}
				}
			}
		}
	})
}

func FuzzBlockedAddStrideKernels(f *testing.F) {
	f.Add(uint8(6), uint8(4), uint8(1), uint16(3), []byte("0123456789abcdef01234567"))
	f.Fuzz(func(t *testing.T, k, gens, gen uint8, lines uint16, data []byte) {
		kk := uint32(k)%engine.MaxK + 1
		g := int(gens)%10 + 1
		words := randomFilter(rand.New(rand.NewPCG(uint64(lines), uint64(gen))), (int(lines%300)+1)*g, 3)
		fuzzEachLevel(t, data, func(hs []uint64) {
			compareStrideAdd(t, words, g, int(gen)%g, kk, hs)
		})
	})
}

// BlockedTestStrideLinesHash trusts no line count: one that does not fit
// the words, or none, holds no key (and reads nothing past them).
func TestBlockedStrideLinesBadArgs(t *testing.T) {
	words := make([]uint64, 3*4*8)
	for i := range words {
		words[i] = ^uint64(0) // every key present where the lines are real
	}
	forEachLevel(t, func(t *testing.T) {
		if !BlockedTestStrideLinesHash(words, 4, 3, 12345, 8) {
			t.Fatal("a full filter misses a key")
		}
		for _, c := range []struct{ lines, gens int }{{5, 3}, {0, 3}, {-1, 3}, {4, 0}, {4, 65}, {97, 1}} {
			if BlockedTestStrideLinesHash(words, c.lines, c.gens, 12345, 8) {
				t.Errorf("lines %d, gens %d over %d words: a key found", c.lines, c.gens, len(words))
			}
		}
	})
}
