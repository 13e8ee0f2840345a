package asm

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/engine"
)

// blockedMaskTest is the scheme as BlockedMask spells it: the reference
// the unrolled single-key probe must equal.
func blockedMaskTest(words []uint64, k uint32, h uint64) bool {
	line, _ := blockedLineOf(words, h)
	m := BlockedMask(h, k)
	var miss uint64
	for w := range m {
		miss |= m[w] &^ line[w]
	}
	return miss == 0
}

// The single-key probe (BlockedTestHash, BlockedAddHash,
// BlockedTestAndAddHash) answers and sets exactly what BlockedMask says,
// for every k, on lines of every fill.
func TestBlockedProbeIsMask(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for k := uint32(1); k <= engine.MaxK; k++ {
		for _, fill := range []int{0, 4, 6, 7, 8} {
			words := randomFilter(r, 5, fill)
			for range 300 {
				h := r.Uint64()
				want := blockedMaskTest(words, k, h)
				if got := BlockedTestHash(words, h, k); got != want {
					t.Fatalf("k=%d fill=%d h=%#x: BlockedTestHash = %v, mask says %v", k, fill, h, got, want)
				}
				added := slices.Clone(words)
				BlockedAddHash(added, h, k)
				line := BlockedLine(h, 5)
				m := BlockedMask(h, k)
				for w := range 8 {
					words[line*8+uint64(w)] |= m[w]
				}
				if !slices.Equal(added, words) {
					t.Fatalf("k=%d h=%#x: BlockedAddHash set other bits than BlockedMask", k, h)
				}
				both := slices.Clone(added)
				if !BlockedTestAndAddHash(both, h, k) || !slices.Equal(both, added) {
					t.Fatalf("k=%d h=%#x: TestAndAdd of an added key changed the line or said absent", k, h)
				}
			}
			fresh := randomFilter(r, 5, fill)
			for range 100 {
				h := r.Uint64()
				before := blockedMaskTest(fresh, k, h)
				added := slices.Clone(fresh)
				BlockedAddHash(added, h, k)
				if got := BlockedTestAndAddHash(fresh, h, k); got != before || !slices.Equal(fresh, added) {
					t.Fatalf("k=%d h=%#x: TestAndAdd = %v (before %v) or its bits differ from Add", k, h, got, before)
				}
			}
		}
	}
}

// blockedWindow covers k%8 words from s, or all eight.
func TestBlockedWindow(t *testing.T) {
	for k := uint32(1); k <= engine.MaxK; k++ {
		for s := uint64(0); s < 8; s++ {
			g := s << 13
			var want uint64
			for w := range uint64(8) {
				if k%8 == 0 || (w-s)&7 < uint64(k%8) {
					want |= 1 << w
				}
			}
			if got := uint64(blockedWindow(g, k)); got != want {
				t.Fatalf("blockedWindow(s=%d, k=%d) = %08b, want %08b", s, k, got, want)
			}
		}
	}
}

// The single-key probe against the scheme for any hash, k and fill: the
// test answers what BlockedMask says, the add sets exactly the mask, and
// a line holds every key added to it.
func FuzzBlockedProbe(f *testing.F) {
	f.Add(uint64(0), uint8(6), uint64(1))
	f.Add(^uint64(0), uint8(63), uint64(7))
	f.Add(uint64(0x9e3779b97f4a7c15), uint8(8), uint64(4))
	f.Fuzz(func(t *testing.T, h uint64, k8 uint8, seed uint64) {
		k := uint32(k8)%engine.MaxK + 1
		words := randomFilter(rand.New(rand.NewPCG(seed, 3)), 3, int(seed%9))
		if got, want := BlockedTestHash(words, h, k), blockedMaskTest(words, k, h); got != want {
			t.Fatalf("k=%d h=%#x: BlockedTestHash = %v, mask says %v", k, h, got, want)
		}
		added := slices.Clone(words)
		BlockedAddHash(added, h, k)
		line, m := BlockedLine(h, 3), BlockedMask(h, k)
		for w := range 8 {
			words[line*8+uint64(w)] |= m[w]
		}
		if !slices.Equal(added, words) || !BlockedTestHash(added, h, k) {
			t.Fatalf("k=%d h=%#x: BlockedAddHash set other bits than BlockedMask, or the key tests absent after it", k, h)
		}
	})
}
