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
// groups of ks: key i's line is (hi(h) * lines) >> 32 and its count for
// word w is byte w of h; a test's key is present where every count below
// 64 finds its bit set (bit 63 - count), an add sets that bit (bit count
// at avx2, 63 - count at avx512).
func leastWorkGo(words, ks []uint64, out []bool, seed uint64, avx512 bool) int {
	lines, hits := uint64(len(words)/8), 0
	for i, x := range ks[:len(ks)&^7] {
		h := engine.HashUint64Seed(x, seed)
		line := words[(h>>32)*lines>>32*8:][:8]
		present := true
		for w := range line {
			c := h >> (8 * w) & 0xff
			switch {
			case c >= 64:
			case out != nil:
				present = present && line[w]>>(63-c)&1 == 1
			case avx512:
				line[w] |= 1 << (63 - c)
			default:
				line[w] |= 1 << c
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
					words := make([]uint64, lines*8)
					for i := range words {
						words[i] = r.Uint64() | r.Uint64()
					}
					ks := make([]uint64, n)
					for i := range ks {
						ks[i] = r.Uint64()
					}
					seed := r.Uint64()
					key := asm.NewBlockedProbe(nil, 0, 6, seed).Key
					g := n &^ 7
					want, got := make([]bool, g), make([]bool, g)
					wantHits := leastWorkGo(words, ks, want, seed, level == "avx512")
					var hits int
					added, wantAdded := slices.Clone(words), slices.Clone(words)
					leastWorkGo(wantAdded, ks, nil, seed, level == "avx512")
					if level == "avx512" {
						hits = blockedTestUint64sFloorAVX512(words, ks[:g], got, 6, key, pf)
						blockedAddUint64sFloorAVX512(added, ks[:g], 6, key, pf)
					} else {
						hits = blockedTestUint64sFloorAVX2(words, ks[:g], got, 6, key, pf)
						blockedAddUint64sFloorAVX2(added, ks[:g], 6, key, pf)
					}
					if hits != wantHits || !slices.Equal(got, want) {
						t.Fatalf("%s lines=%d n=%d pf=%d: test floor %d hits, want %d (answers equal: %v)", level, lines, n, pf, hits, wantHits, slices.Equal(got, want))
					}
					if !slices.Equal(added, wantAdded) {
						t.Fatalf("%s lines=%d n=%d pf=%d: add floor set other bits", level, lines, n, pf)
					}
				}
			}
		}
	}
}
