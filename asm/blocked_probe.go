package asm

import "math/bits"

// The single-key probe of the blocked scheme, shared by the blocked
// family's scalar methods and the generic batch kernels, so the batch
// path on purego and arm64 runs the same code as a loop of single-key
// calls. A round is unrolled over the eight words with constant word
// indices, so the only variable shift per word is the probe bit itself;
// the last (for k <= 8 the only) round covers the words of a mask,
// blockedWindow, instead of a loop over a rotating word index; the line
// is an *[8]uint64, so the probe has no bounds check.

// blockedBit returns the bit, in word w of its line, that a round with
// value g sets: (g >> BlockedShift(w)) & 63 = (g >> (58 - 6w)) & 63. It is
// the scheme's one statement of the bit formula: every probe in Go goes
// through it (with a constant w the shift is a constant), and the vector
// kernels' per-lane shift table is BlockedShift.
func blockedBit(g uint64, w uint) uint64 { return (g >> BlockedShift(w)) & 63 }

// BlockedShift is how far right a round's g is shifted for word w before
// its low six bits are taken: word 0 takes the top six bits of g, word 7
// bits 16..21.
func BlockedShift(w uint) uint { return 58 - 6*w }

// blockedZero is the panic of a write to a blocked filter without lines:
// a zero blocked.Filter, or one after Close. It is the message
// internal/batch.Zero gives for that type (batch imports asm, so asm
// cannot call it); the blocked package's tests hold the two equal. The
// check lives here, in the non-inlined probe, so that it costs the
// inlined single-key methods of blocked.Filter nothing.
const blockedZero = "blocked.Filter: zero value, use blocked.New"

// blockedWindow returns, as bits 0..7, the words that the last round of k
// probes sets: the k%8 words from s = (g0 >> 13) & 7 on, wrapping, where
// g0 = h*BlockedMul, or all eight when k is a multiple of 8.
func blockedWindow(g0 uint64, k uint32) uint64 {
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
//
// Words without a line (a zero filter) hold no key: the answer is false.
func BlockedTestHash(words []uint64, h uint64, k uint32) bool {
	line := blockedLineOf(words, h)
	if line == nil {
		return false
	}
	g := h * BlockedMul
	last := blockedWindow(g, k)
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
		all &= line[0] | bits.RotateLeft64(out|^uint64(1), int(blockedBit(g, 0)))
		all &= line[1] | bits.RotateLeft64(out>>1|^uint64(1), int(blockedBit(g, 1)))
		all &= line[2] | bits.RotateLeft64(out>>2|^uint64(1), int(blockedBit(g, 2)))
		all &= line[3] | bits.RotateLeft64(out>>3|^uint64(1), int(blockedBit(g, 3)))
		all &= line[4] | bits.RotateLeft64(out>>4|^uint64(1), int(blockedBit(g, 4)))
		all &= line[5] | bits.RotateLeft64(out>>5|^uint64(1), int(blockedBit(g, 5)))
		all &= line[6] | bits.RotateLeft64(out>>6|^uint64(1), int(blockedBit(g, 6)))
		all &= line[7] | bits.RotateLeft64(out>>7|^uint64(1), int(blockedBit(g, 7)))
		if r == 0 {
			return all == ^uint64(0)
		}
	}
}

// BlockedAddHash sets the k bits of hash h in the blocked filter words.
// Words without a line panic with the message of a zero blocked.Filter.
func BlockedAddHash(words []uint64, h uint64, k uint32) {
	line := blockedLineOf(words, h)
	if line == nil {
		panic(blockedZero)
	}
	g := h * BlockedMul
	last := blockedWindow(g, k)
	mask := uint64(0xff)
	for r := (k + 7) >> 3; ; g *= BlockedMul {
		if r--; r == 0 {
			mask = last
		}
		// Bit w of mask says whether word w takes its bit this round.
		line[0] |= mask & 1 << blockedBit(g, 0)
		line[1] |= mask >> 1 & 1 << blockedBit(g, 1)
		line[2] |= mask >> 2 & 1 << blockedBit(g, 2)
		line[3] |= mask >> 3 & 1 << blockedBit(g, 3)
		line[4] |= mask >> 4 & 1 << blockedBit(g, 4)
		line[5] |= mask >> 5 & 1 << blockedBit(g, 5)
		line[6] |= mask >> 6 & 1 << blockedBit(g, 6)
		line[7] |= mask >> 7 & 1 << blockedBit(g, 7)
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

// blockedLineOf returns the line of hash h in words (a whole number of
// 8-word lines) as an array pointer, or nil when words has no line (a
// zero filter). Its one test is the bounds check the line needs anyway,
// so the zero-filter guard costs the probe nothing.
func blockedLineOf(words []uint64, h uint64) *[8]uint64 {
	base := int(BlockedLine(h, uint64(len(words))/8) * 8)
	if base < 0 || base > len(words)-8 {
		return nil
	}
	return (*[8]uint64)(words[base : base+8])
}
