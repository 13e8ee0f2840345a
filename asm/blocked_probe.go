package asm

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
func BlockedTestHash(words []uint64, h uint64, k uint32) bool {
	line := BlockedLineOf(words, h)
	g := h * BlockedMul
	last := BlockedWindow(g, k)
	mask := uint64(0xff)
	var miss uint64
	for r := (k + 7) >> 3; ; g *= BlockedMul {
		if r--; r == 0 {
			mask = last
		}
		// hit collects the probe bit of word w in its bit w. c holds word
		// w's field, BlockedBit(g, w), in its low six bits: the word's
		// shift count, one rotate from the next word's.
		c := g<<48 | g>>16
		hit := line[7] >> (c & 63) & 1
		c = c<<58 | c>>6
		hit = hit<<1 | line[6]>>(c&63)&1
		c = c<<58 | c>>6
		hit = hit<<1 | line[5]>>(c&63)&1
		c = c<<58 | c>>6
		hit = hit<<1 | line[4]>>(c&63)&1
		c = c<<58 | c>>6
		hit = hit<<1 | line[3]>>(c&63)&1
		c = c<<58 | c>>6
		hit = hit<<1 | line[2]>>(c&63)&1
		c = c<<58 | c>>6
		hit = hit<<1 | line[1]>>(c&63)&1
		c = c<<58 | c>>6
		hit = hit<<1 | line[0]>>(c&63)&1
		miss |= ^hit & mask
		if r == 0 {
			return miss == 0
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
