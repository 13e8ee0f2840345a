package asm

import "math/bits"

// The single-key probe of the blocked scheme, shared by the blocked
// family's scalar methods and the generic batch kernels, so the batch
// path on purego and arm64 runs the same code as a loop of single-key
// calls. A round is unrolled over the eight words with constant word
// indices, so the only variable shift per word is the probe bit itself;
// the last (for k <= 8 the only) round covers the words of a mask,
// BlockedWindow, instead of a loop over a rotating word index; the line
// is an *[8]uint64, so the probe has no bounds check.

// BlockedBit returns the bit, in word w of its line, that a round with
// value g sets: (g >> (58 - 6w)) & 63. Every probe of the scheme goes
// through it; with a constant w the shift is a constant.
func BlockedBit(g uint64, w uint) uint64 { return (g >> (58 - 6*w)) & 63 }

// BlockedWindow returns, as bits 0..7, the words that the last round of k
// probes sets: the k%8 words from s = (g0 >> 13) & 7 on, wrapping, where
// g0 = h*BlockedMul, or all eight when k is a multiple of 8.
func BlockedWindow(g0 uint64, k uint32) uint64 {
	win := uint64(0xff) >> ((8 - k) & 7) // k%8 low bits, or eight
	s := (g0 >> 13) & 7
	return (win<<s | win>>(8-s)) & 0xff
}

// BlockedTestHash reports whether the blocked filter words (a whole
// number of 8-word lines) holds all k bits of hash h; k in [1,
// BlockedMaxK].
//
// Each word's test is built so that little waits for the line: the
// inverted probe bit ^(1 << b) of a word (all ones for a word outside the
// round's mask) is computed from the hash alone, and only an OR with the
// word and an AND into the result depend on the load. With few
// instructions queued behind a cache miss, the core keeps running ahead
// into the next keys and overlaps their misses.
func BlockedTestHash(words []uint64, h uint64, k uint32) bool {
	line := BlockedLineOf(words, h)
	g := h * BlockedMul
	last := BlockedWindow(g, k)
	mask := uint64(0xff)
	all := ^uint64(0)
	for r := (k + 7) >> 3; ; g *= BlockedMul {
		if r--; r == 0 {
			mask = last
		}
		// out>>w | ^1 is ^1 for a word w the round covers, all ones for
		// one it skips; rotating it left by the word's bit clears just
		// that bit.
		out := ^mask
		all &= line[0] | bits.RotateLeft64(out|^uint64(1), int(BlockedBit(g, 0)))
		all &= line[1] | bits.RotateLeft64(out>>1|^uint64(1), int(BlockedBit(g, 1)))
		all &= line[2] | bits.RotateLeft64(out>>2|^uint64(1), int(BlockedBit(g, 2)))
		all &= line[3] | bits.RotateLeft64(out>>3|^uint64(1), int(BlockedBit(g, 3)))
		all &= line[4] | bits.RotateLeft64(out>>4|^uint64(1), int(BlockedBit(g, 4)))
		all &= line[5] | bits.RotateLeft64(out>>5|^uint64(1), int(BlockedBit(g, 5)))
		all &= line[6] | bits.RotateLeft64(out>>6|^uint64(1), int(BlockedBit(g, 6)))
		all &= line[7] | bits.RotateLeft64(out>>7|^uint64(1), int(BlockedBit(g, 7)))
		if r == 0 {
			return all == ^uint64(0)
		}
	}
}

// BlockedAddHash sets the k bits of hash h in the blocked filter words.
func BlockedAddHash(words []uint64, h uint64, k uint32) {
	line := BlockedLineOf(words, h)
	g := h * BlockedMul
	last := BlockedWindow(g, k)
	mask := uint64(0xff)
	for r := (k + 7) >> 3; ; g *= BlockedMul {
		if r--; r == 0 {
			mask = last
		}
		// m's bit 0 says whether word w takes its bit; c rotates word w's
		// field, BlockedBit(g, w), into its low six bits.
		m, c := mask, g<<6|g>>58
		line[0] |= m & 1 << (c & 63)
		m, c = m>>1, c<<6|c>>58
		line[1] |= m & 1 << (c & 63)
		m, c = m>>1, c<<6|c>>58
		line[2] |= m & 1 << (c & 63)
		m, c = m>>1, c<<6|c>>58
		line[3] |= m & 1 << (c & 63)
		m, c = m>>1, c<<6|c>>58
		line[4] |= m & 1 << (c & 63)
		m, c = m>>1, c<<6|c>>58
		line[5] |= m & 1 << (c & 63)
		m, c = m>>1, c<<6|c>>58
		line[6] |= m & 1 << (c & 63)
		m, c = m>>1, c<<6|c>>58
		line[7] |= m & 1 << (c & 63)
		if r == 0 {
			return
		}
	}
}

// BlockedTestAndAddHash sets the k bits of hash h in the blocked filter
// words and reports whether all of them were set before. A key that tests
// present changes nothing, so the add runs only for the others.
func BlockedTestAndAddHash(words []uint64, h uint64, k uint32) bool {
	present := BlockedTestHash(words, h, k)
	if !present {
		BlockedAddHash(words, h, k)
	}
	return present
}

// BlockedLineOf returns the line of hash h in words (a whole number of
// 8-word lines) as an array pointer: one bounds check for the whole
// probe.
func BlockedLineOf(words []uint64, h uint64) *[8]uint64 {
	base := BlockedLine(h, uint64(len(words))/8) * 8
	return (*[8]uint64)(words[base : base+8])
}
