package asm

import (
	"sync/atomic"

	"github.com/filterengine/filterengine/engine"
)

// Counting filter cell choice, shared by the counting package's scalar
// methods and the batch kernels. A key hash h picks the 64-byte line
// engine.Reduce(h, lines) and k cells of that line: cell i is the i%9-th
// 7-bit chunk (low bits first) of CountingProbes(h, i/9), masked to the
// line's cell count (128 4-bit counters or 64 8-bit counters). Cells may
// repeat; a repeated cell counts once.
//
// Cell c of a line lives in byte c&63: for 4-bit counters the low nibble
// when c < 64 and the high nibble when c >= 64; for 8-bit counters the
// whole byte. So a 64-byte line splits into "low nibbles" and "high
// nibbles" with one vector AND each, and the nonzero cells of a line are
// two 64-bit masks whose bit c&63 is cell c.
const (
	CountingLineWords     = 8
	CountingChunkBits     = 7
	CountingChunksPerWord = 9
)

// CountingProbes returns the 64-bit word whose 7-bit chunks are a key's
// cells 9*round .. 9*round+8: the murmur3 finalizer of h + round*golden,
// so the cells are independent of the line, which Reduce takes from the
// hash's high bits.
func CountingProbes(h, round uint64) uint64 {
	x := h + round*0x9e3779b97f4a7c15
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	return x ^ x>>33
}

// CountingShift returns the bit offset of cell c inside its word
// ((c&63)>>3 of the line): byte c&7 of the word, plus 4 for a high nibble.
// For 8-bit counters c < 64, so the same formula serves both widths.
func CountingShift(c uint64) uint64 { return (c&7)<<3 | (c>>6&1)<<2 }

// CountingTestHashes sets out[i] to whether all k cells of hs[i] are
// nonzero in the counting filter words (lines lines of 8 words; wide
// selects 8-bit counters, else 4-bit) and returns the number of true
// answers. Other goroutines may update words concurrently with atomic
// operations; each word is read atomically. k must be in [1, engine.MaxK],
// words at least 8*lines long and out at least as long as hs.
func CountingTestHashes(words []uint64, lines uint64, k uint32, wide bool, hs []uint64, out []bool) int {
	if len(out) < len(hs) {
		panic("asm: CountingTestHashes out shorter than hashes")
	}
	if lines == 0 || uint64(len(words))/CountingLineWords < lines || k == 0 || k > engine.MaxK {
		panic("asm: CountingTestHashes bad filter geometry")
	}
	return countingTestHashes(words, lines, k, wide, hs, out[:len(hs)])
}

// countingTestHashesGeneric is the specification of the batch test.
func countingTestHashesGeneric(words []uint64, lines uint64, k uint32, wide bool, hs []uint64, out []bool) int {
	cellMask, counterMask := uint64(127), uint64(0xf)
	if wide {
		cellMask, counterMask = 63, 0xff
	}
	hits := 0
	for i, h := range hs {
		line := (*[CountingLineWords]uint64)(words[engine.Reduce(h, lines)*CountingLineWords:])
		present := true
		x, round := CountingProbes(h, 0), uint64(0)
		for j := range k {
			if j%CountingChunksPerWord == 0 && j > 0 {
				round++
				x = CountingProbes(h, round)
			}
			c := x & cellMask
			x >>= CountingChunkBits
			if atomic.LoadUint64(&line[c>>3&7])>>CountingShift(c)&counterMask == 0 {
				present = false
				break
			}
		}
		out[i] = present
		if present {
			hits++
		}
	}
	return hits
}
