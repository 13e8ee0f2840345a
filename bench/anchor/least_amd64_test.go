//go:build amd64 && gc && !purego

package main

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
)

// leastWorkGo is what the grouped kernels' floors compute for the whole
// groups of ks with k probes: key i's line is (hi(h) * lines) >> 32, its
// window the words of asm.BlockedRows(k)'s take row (h >> 13) & 7, and
// its bit in word w of the window the low six bits of byte w of h; a
// test's key is present where every such bit is set, an add sets them.
func leastWorkGo(words, ks []uint64, out []bool, k uint32, seed uint64) int {
	_, take := asm.BlockedRows(k)
	lines, hits := uint64(len(words)/8), 0
	for i, x := range ks[:len(ks)&^7] {
		h := engine.HashUint64Seed(x, seed)
		line := words[(h>>32)*lines>>32*8:][:8]
		present := true
		for w, t := range take[h>>13&7] {
			bit := uint64(1) << (h >> (8 * w) & 63)
			switch {
			case t == 0:
			case out != nil:
				present = present && line[w]&bit != 0
			default:
				line[w] |= bit
			}
		}
		if out != nil {
			out[i] = present
			if present {
				hits++
			}
		}
	}
	return hits
}

// The floors of the grouped kernels probe and set what leastWorkGo
// says, at every level the CPU has, with and without each prefetch,
// for key counts around a group and the kernels' ring of groups ahead.
func TestLeastWork(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, level := range []string{"avx2", "avx512"} {
		if !slices.Contains(asm.Available(), level) {
			t.Logf("%s: not on this CPU", level)
			continue
		}
		for _, lines := range []uint64{1, 7, 1000} {
			for _, n := range []int{0, 7, 8, 95, 96, 97, 104, 1000} {
				for pf := range 3 {
					k := uint32(1 + r.IntN(8))
					words := make([]uint64, lines*8)
					for i := range words {
						words[i] = r.Uint64() | r.Uint64()
					}
					ks := make([]uint64, n)
					for i := range ks {
						ks[i] = r.Uint64()
					}
					seed := r.Uint64()
					key := asm.NewBlockedProbe(nil, 0, k, seed).Key
					g := n &^ 7
					want, got := make([]bool, g), make([]bool, g)
					wantHits := leastWorkGo(words, ks, want, k, seed)
					var hits int
					added, wantAdded := slices.Clone(words), slices.Clone(words)
					leastWorkGo(wantAdded, ks, nil, k, seed)
					if level == "avx512" {
						hits = blockedTestUint64sFloorAVX512(words, ks[:g], got, k, key, pf)
						blockedAddUint64sFloorAVX512(added, ks[:g], k, key, pf)
					} else {
						hits = blockedTestUint64sFloorAVX2(words, ks[:g], got, k, key, pf)
						blockedAddUint64sFloorAVX2(added, ks[:g], k, key, pf)
					}
					if hits != wantHits || !slices.Equal(got, want) {
						t.Fatalf("%s lines=%d n=%d pf=%d k=%d: test floor %d hits, want %d (answers equal: %v)", level, lines, n, pf, k, hits, wantHits, slices.Equal(got, want))
					}
					if !slices.Equal(added, wantAdded) {
						t.Fatalf("%s lines=%d n=%d pf=%d k=%d: add floor set other bits", level, lines, n, pf, k)
					}
				}
			}
		}
	}
}
