package asm

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// The grouped kernels (BlockedTestUint64s, BlockedAddUint64s) take whole
// groups of eight keys at the levels that have them, and none elsewhere;
// what they take must be what the generic twins do with the keys'
// hashes, around the group and the prefetch ring's sizes, for every k
// they take and the ones they leave.
func TestBlockedGroups(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	sizes := []int{0, 1, 7, 8, 9, 15, 16, 63, 64, 65, 71, 72, 127, 128, 129, 1000}
	forEachLevel(t, func(t *testing.T) {
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
						checkGroups(t, words, k, seed, ks, fmt.Sprintf("lines=%d k=%d fill=%d n=%d", lines, k, fill, n))
					}
				}
			}
		}
	})
}

func checkGroups(t *testing.T, words []uint64, k uint32, seed uint64, ks []uint64, what string) {
	t.Helper()
	hs := make([]uint64, len(ks))
	HashUint64s(hs, ks, seed)
	want := make([]bool, len(ks))
	got := make([]bool, len(ks)+1)
	got[len(ks)] = true // past the keys: never written
	hits, done := BlockedTestUint64s(words, k, seed, ks, got)
	takes := Kernel() != "generic" && k <= 8
	if wantDone := len(ks) &^ 7; (takes && done != wantDone) || (!takes && done != 0) {
		t.Fatalf("%s %s: BlockedTestUint64s took %d keys", Kernel(), what, done)
	}
	wantHits := blockedTestHashesGeneric(words, k, hs[:done], want[:done])
	if hits != wantHits || !slices.Equal(got[:done], want[:done]) || !got[len(ks)] {
		t.Fatalf("%s %s: BlockedTestUint64s = %d hits, generic %d (answers equal: %v)", Kernel(), what, hits, wantHits, slices.Equal(got[:done], want[:done]))
	}
	wantWords := slices.Clone(words)
	gotWords := slices.Clone(words)
	done = BlockedAddUint64s(gotWords, k, seed, ks)
	blockedAddHashesGeneric(wantWords, k, hs[:done])
	if !slices.Equal(gotWords, wantWords) {
		t.Fatalf("%s %s: BlockedAddUint64s set other bits than the generic twin", Kernel(), what)
	}
}
