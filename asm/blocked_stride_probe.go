package asm

import (
	"math/bits"

	"github.com/filterengine/filterengine/engine"
)

// BlockedTestStrideHash reports whether hash h may be in any of the gens
// strided filters in words (each len(words)/gens words, k probes): the
// single-key form of BlockedTestStrideHashes. The key's mask is built once
// and tested against its line in every filter without a branch on the
// answers, so the lines' loads all issue at once instead of one after the
// other behind a branch on the previous answer: at avx2 and avx512 one
// kernel call (blockedTestStrideHash<ISA>). k in [1, engine.MaxK]; words
// without a line (a zero Window) hold no key.
func BlockedTestStrideHash(words []uint64, gens int, h uint64, k uint32) bool {
	if gens < 1 || gens > blockedMaxFilters {
		return false
	}
	return BlockedTestStrideLinesHash(words, len(words)/gens/8, gens, h, k)
}

// BlockedTestStrideLinesHash is BlockedTestStrideHash for a caller that
// knows each filter's line count (a Window): no division per key. lines
// and gens must describe at most len(words) words; words without a line
// hold no key.
func BlockedTestStrideLinesHash(words []uint64, lines, gens int, h uint64, k uint32) bool {
	if gens < 1 || gens > blockedMaxFilters || lines < 1 || lines > len(words)/(8*gens) {
		return false
	}
	if k == 0 || k > engine.MaxK {
		return blockedTestStrideHashGeneric(words, lines, gens, h, k) // the kernels take k in [1, 64]
	}
	return blockedTestStrideHash(words, lines, gens, h, k)
}

// blockedTestStrideHashGeneric is the specification of the strided
// single-key test, for filters of lines lines (at least one): each round's
// inverted probe words are computed once and ORed with the key's line in
// every filter, and the filters' answers combined without a branch.
func blockedTestStrideHashGeneric(words []uint64, lines, gens int, h uint64, k uint32) bool {
	base := int(BlockedLine(h, uint64(lines))) * gens * 8
	// miss[f] gathers, over the rounds, the probe bits line f lacks.
	var miss [blockedMaxFilters]uint64
	g0 := h * BlockedMul
	rounds := (k + 7) >> 3
	g := g0
	for r := range rounds {
		keep := &blockedKeep[0][0] // all eight words
		if r == rounds-1 {
			keep = blockedKeepRow(g0, k) // the last round's words
		}
		p := blockedProbe(g, keep)
		g *= BlockedMul
		for f := range gens {
			line := (*[8]uint64)(words[base+f*8 : base+f*8+8])
			miss[f] |= ^((line[0] | p[0]) & (line[1] | p[1]) & (line[2] | p[2]) & (line[3] | p[3]) &
				(line[4] | p[4]) & (line[5] | p[5]) & (line[6] | p[6]) & (line[7] | p[7]))
		}
	}
	// (m - 1) &^ m has its top bit set exactly when m is zero.
	var held uint64
	for _, m := range miss[:gens] {
		held |= (m - 1) &^ m
	}
	return held>>63 != 0
}

// blockedProbe returns a round's inverted probe words: word w is
// ^(1 << bit) for a word the round covers (keep[w] = ^1), all ones for
// one it skips, so a line holds the round's bits when (line[w] | p[w]) is
// all ones in every word.
func blockedProbe(g uint64, keep *[8]uint64) (p [8]uint64) {
	for w := range p {
		p[w] = bits.RotateLeft64(keep[w], int(blockedBit(g, uint(w))))
	}
	return p
}
