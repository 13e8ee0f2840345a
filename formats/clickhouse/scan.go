package clickhouse

import (
	"encoding/binary"
	"math/bits"
)

const (
	lanes = 0x0101010101010101 // 1 in every byte
	highs = 0x8080808080808080 // the top bit of every byte
)

// tokenBits8 classifies the 8 bytes of w (byte j at bits 8j..8j+7) at
// once: bit j of the result is set when byte j is a token byte of
// tokenbf_v1 ([0-9A-Za-z] or >= 0x80). A range test adds to the low 7 bits
// of every byte a bias that carries into the byte's top bit exactly when
// the byte is at least the bound; no sum reaches the next byte. ASCII
// letters fold to lower case with 0x20, and no other byte lands in [a-z].
func tokenBits8(w uint64) uint64 {
	h := w &^ highs
	digit := (h + (0x80-'0')*lanes) &^ (h + (0x80-'9'-1)*lanes)
	l := h | 0x20*lanes
	alpha := (l + (0x80-'a')*lanes) &^ (l + (0x80-'z'-1)*lanes)
	return ((w | digit | alpha) & highs) * 0x02040810204081 >> 56 // gather the top bits
}

// tokenMask64 returns the token bytes of b[:64] as a mask, bit i for byte i.
func tokenMask64(b []byte) uint64 {
	b = b[:64]
	m := tokenBits8(binary.LittleEndian.Uint64(b[0:]))
	m |= tokenBits8(binary.LittleEndian.Uint64(b[8:])) << 8
	m |= tokenBits8(binary.LittleEndian.Uint64(b[16:])) << 16
	m |= tokenBits8(binary.LittleEndian.Uint64(b[24:])) << 24
	m |= tokenBits8(binary.LittleEndian.Uint64(b[32:])) << 32
	m |= tokenBits8(binary.LittleEndian.Uint64(b[40:])) << 40
	m |= tokenBits8(binary.LittleEndian.Uint64(b[48:])) << 48
	m |= tokenBits8(binary.LittleEndian.Uint64(b[56:])) << 56
	return m
}

// tokenMasksGeneric is tokenMasks in Go.
func tokenMasksGeneric(dst []uint64, src []byte) {
	src = src[:64*len(dst)]
	for i := range dst {
		dst[i] = tokenMask64(src[64*i:])
	}
}

// tokenBounds finds the tokens of b[from:to], to - from a multiple of 64,
// and writes them as bounds into b: token j is b[starts[j]:ends[j]]. It
// returns the count; starts and ends must have room for (to-from)/2 + 8
// entries, masks for (to-from)/64. b[from-1] and b[to-1] must be
// separators. The tokens come 64 bytes at a time from a mask of token
// bytes: a token starts at a token byte after a separator and ends at a
// separator after a token byte.
func tokenBounds(b []byte, from, to int, starts, ends []int32, masks []uint64) int {
	masks = masks[:(to-from)/64]
	tokenMasks(masks, b[from:to])
	ns, ne := 0, 0
	var carry uint64 // the last byte of the previous block is a token byte
	for i, m := range masks {
		base := from + 64*i
		prev := m<<1 | carry
		ns = bitPositions(starts, ns, base, m&^prev)
		ne = bitPositions(ends, ne, base, prev&^m)
		carry = m >> 63
	}
	return ne
}

// bitPositions writes base + the index of every set bit of set into
// pos[n:], in order, and returns the new count. It writes 8 positions
// whatever the count (those past it are overwritten later), so that a
// block of up to 8 tokens costs no branch that depends on its count; pos
// must have room for 8 past the count.
func bitPositions(pos []int32, n, base int, set uint64) int {
	cnt := bits.OnesCount64(set)
	p := pos[n : n+8]
	p[0] = int32(base + bits.TrailingZeros64(set))
	set &= set - 1
	p[1] = int32(base + bits.TrailingZeros64(set))
	set &= set - 1
	p[2] = int32(base + bits.TrailingZeros64(set))
	set &= set - 1
	p[3] = int32(base + bits.TrailingZeros64(set))
	set &= set - 1
	p[4] = int32(base + bits.TrailingZeros64(set))
	set &= set - 1
	p[5] = int32(base + bits.TrailingZeros64(set))
	set &= set - 1
	p[6] = int32(base + bits.TrailingZeros64(set))
	set &= set - 1
	p[7] = int32(base + bits.TrailingZeros64(set))
	set &= set - 1
	for i := n + 8; set != 0; i++ {
		pos[i] = int32(base + bits.TrailingZeros64(set))
		set &= set - 1
	}
	return n + cnt
}
