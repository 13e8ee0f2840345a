package asm

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/internal/hashing"
)

// The grouped kernels (BlockedTestUint64s, BlockedAddUint64s) take whole
// groups of eight keys at the levels that have them, and none elsewhere;
// what they take must be what their Generic twins do with those keys,
// around the group and the prefetch ring's sizes, for every k they take
// and the ones they leave. The twins themselves must answer as the
// batch of hashes does.
func TestBlockedGroups(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	// Around a group, the prologue's groups (8 * BlockedGroupAhead keys),
	// the ring of 16 groups, and well past them.
	g := 8 * BlockedGroupAhead
	sizes := []int{0, 1, 7, 8, 9, 15, 16, 63, 64, 65, g - 9, g - 1, g, g + 1, g + 8, 127, 128, 129, 1000}
	forEachGroupForm(t, func(t *testing.T) {
		for _, lines := range []int{1, 3, 64, 1 << 15} {
			for _, k := range []uint32{1, 2, 3, 4, 5, 6, 7, 8, 9} {
				for _, fill := range []int{0, 5, 8} {
					words := randomFilter(r, lines, fill)
					for _, n := range sizes {
						ks := make([]uint64, n)
						for i := range ks {
							ks[i] = r.Uint64()
						}
						seed := r.Uint64() >> r.IntN(64)
						eachFarHint(words, func() {
							checkGroups(t, words, k, seed, ks, fmt.Sprintf("lines=%d k=%d fill=%d n=%d far L1 %v", lines, k, fill, n, blockedFarL1))
						})
					}
				}
			}
		}
	})
}

func checkGroups(t *testing.T, words []uint64, k uint32, seed uint64, ks []uint64, what string) {
	t.Helper()
	key := hashing.Uint64Key(seed)
	want := make([]bool, len(ks))
	got := make([]bool, len(ks)+1)
	got[len(ks)] = true // past the keys: never written
	hits, done := BlockedTestUint64s(words, k, seed, ks, got)
	takes := Kernel() != "generic" && k <= 8
	if wantDone := len(ks) &^ 7; (takes && done != wantDone) || (!takes && done != 0) {
		t.Fatalf("%s %s: BlockedTestUint64s took %d keys", Kernel(), what, done)
	}
	wantHits := blockedTestUint64sGeneric(words, k, key, ks[:done], want[:done])
	if hits != wantHits || !slices.Equal(got[:done], want[:done]) || !got[len(ks)] {
		t.Fatalf("%s %s: BlockedTestUint64s = %d hits, generic %d (answers equal: %v)", Kernel(), what, hits, wantHits, slices.Equal(got[:done], want[:done]))
	}
	wantWords := slices.Clone(words)
	gotWords := slices.Clone(words)
	done = BlockedAddUint64s(gotWords, k, seed, ks)
	blockedAddUint64sGeneric(wantWords, k, key, ks[:done])
	if !slices.Equal(gotWords, wantWords) {
		t.Fatalf("%s %s: BlockedAddUint64s set other bits than the generic twin", Kernel(), what)
	}
}

// The Generic twins of the grouped kernels answer and set what the
// batch of the keys' hashes (HashUint64s, then the hashes' Generic
// twins) does, for every k.
func TestBlockedUint64sGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, k := range []uint32{1, 6, 8, 9, 17} {
		words := randomFilter(r, 64, 5)
		ks := make([]uint64, 300)
		for i := range ks {
			ks[i] = r.Uint64()
		}
		seed := r.Uint64()
		hs := make([]uint64, len(ks))
		HashUint64s(hs, ks, seed)
		got, want := make([]bool, len(ks)), make([]bool, len(ks))
		gotHits := blockedTestUint64sGeneric(words, k, hashing.Uint64Key(seed), ks, got)
		wantHits := blockedTestHashesGeneric(words, k, hs, want)
		if gotHits != wantHits || !slices.Equal(got, want) {
			t.Fatalf("k=%d: blockedTestUint64sGeneric %d hits, the hashes' twin %d", k, gotHits, wantHits)
		}
		gotWords, wantWords := slices.Clone(words), slices.Clone(words)
		blockedAddUint64sGeneric(gotWords, k, hashing.Uint64Key(seed), ks)
		blockedAddHashesGeneric(wantWords, k, hs)
		if !slices.Equal(gotWords, wantWords) {
			t.Fatalf("k=%d: blockedAddUint64sGeneric set other bits than the hashes' twin", k)
		}
	}
}
