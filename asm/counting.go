package asm

import (
	"sync/atomic"
	"unsafe"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/hashing"
)

// The narrow-block scheme: every key's k positions lie in one block of
// 2^logBits positions (logBits 7: 128, or 6: 64), so a block of 4-bit
// counters (128) or 8-bit counters (64) is one 64-byte cache line, and
// the blocked filter of 128- or 64-bit blocks has the same positions.
// A key with hash h in a filter of blocks blocks:
//
//	block = hashing.Reduce(h, blocks)
//	g_0 = h * BlockedMul, g_(r+1) = g_r * BlockedMul
//	probe i = r*per + j (per = 64/logBits: 9 or 10 slices of g_r) is
//	position (g_r << (logBits*j)) >> (64 - logBits)
//
// that is the top logBits bits of g_r, then the next logBits, and so on:
// code walks a probe with one constant shift right and one constant
// shift left. Probes are independent and uniform in the block, so two of
// a key's probes can share a position (a bit set once, a counter
// incremented twice). The block comes from the high bits of h, the
// positions from all of h through the multiply.

// NarrowPer is the number of probes one multiplier round yields for
// blocks of 2^logBits positions: 9 (logBits 7) or 10 (logBits 6).
func NarrowPer(logBits uint) uint32 { return uint32(64 / logBits) }

// NarrowBlock returns the block of hash h in a filter of blocks blocks.
func NarrowBlock(h, blocks uint64) uint64 { return hashing.Reduce(h, blocks) }

// NarrowPositions returns the k <= engine.MaxK positions of hash h in its
// block of 2^logBits positions (logBits 6 or 7), probe by probe. It is
// the specification; hot code walks the same slices inline.
func NarrowPositions(h uint64, k uint32, logBits uint) (pos [engine.MaxK]uint8) {
	per := NarrowPer(logBits)
	gr := h * BlockedMul
	g := gr
	for i := range min(k, engine.MaxK) {
		if i > 0 && i%per == 0 {
			gr *= BlockedMul
			g = gr
		}
		pos[i] = uint8(g >> (64 - logBits))
		g <<= logBits
	}
	return pos
}

// Counting filter layout (format version 2 of the counting family), shared
// by the counting package and its batch kernels: a line is one 64-byte
// block of the narrow-block scheme, 8 words. 4-bit counters: 128 per
// line (logBits 7), counter q in bits 4(q&15).. of word q>>4, so byte q>>1,
// low nibble for even q. 8-bit counters: 64 per line (logBits 6), counter
// q is byte q&7 of word q>>3, byte q of the line. The nonzero counters are
// the set bits of the blocked.Narrow filter of 128- or 64-bit blocks.

// CountingLineWords is the number of 64-bit words of one counting line.
const CountingLineWords = 8

// CountingLogBits is log2 of the counters of a line: 7 (4-bit counters,
// 128 a line) or 6 (8-bit, 64).
func CountingLogBits(wide bool) uint {
	if wide {
		return 6
	}
	return 7
}

// countingPrefetchDist is the prefetch distance of the batch test
// kernels, their dist: while testing a key they request the line of the
// key this many places ahead. The counting package's batch updates
// request lines at its own distance through CountingPrefetch.
const countingPrefetchDist = 8

// CountingTestHashes sets out[i] to whether all counters of hs[i] (its k
// positions, NarrowPositions(hs[i], k, CountingLogBits(wide)), in line
// NarrowBlock(hs[i], lines)) are nonzero in the counting filter words
// (lines lines of 8 words; wide selects 8-bit counters, else 4-bit) and
// returns the number of true answers. Other goroutines may update words
// concurrently with atomic operations; each word is read atomically. k
// must be in [1, engine.MaxK], words at least lines*8 long and out at
// least as long as hs.
func CountingTestHashes(words []uint64, lines uint64, k uint32, wide bool, hs []uint64, out []bool) int {
	if len(out) < len(hs) {
		panic("asm: CountingTestHashes out shorter than hashes")
	}
	if lines == 0 || uint64(len(words))/CountingLineWords < lines || k == 0 || k > engine.MaxK {
		panic("asm: CountingTestHashes bad filter geometry")
	}
	return countingTestHashes(words, lines, k, wide, hs, out[:len(hs)])
}

// CountingPrefetch asks for the lines of every hash of hs in the counting
// filter words (lines lines of 8 words) to be brought into the cache ahead
// of their updates; it changes nothing. A locked CAS waits for every
// earlier load, so a batch that updates key after key serializes the
// keys' cache misses unless their lines were requested first: the
// counting package requests the line of the key its prefetch distance
// ahead. words must hold at least lines*8 words.
func CountingPrefetch(words []uint64, lines uint64, hs []uint64) {
	if lines == 0 || uint64(len(words))/CountingLineWords < lines {
		panic("asm: CountingPrefetch bad filter geometry")
	}
	countingPrefetchHashes(words, lines, hs)
}

// prefetchSink keeps countingPrefetchHashesGeneric's loads from being
// dead.
var prefetchSink atomic.Uint64

// countingPrefetchHashesGeneric is the specification of the prefetch: it
// loads one word of each hash's line (Go has no portable prefetch
// instruction) and has no effect on the filter.
func countingPrefetchHashesGeneric(words []uint64, lines uint64, hs []uint64) {
	var acc uint64
	for _, h := range hs {
		acc |= atomic.LoadUint64(&words[NarrowBlock(h, lines)*CountingLineWords])
	}
	if acc == 1<<63 {
		prefetchSink.Store(acc)
	}
}

// CountingLine returns line NarrowBlock(h, lines) of the counting filter
// words. words must hold at least lines*8 words and lines must be
// positive: the caller's invariant, not checked here (the line is
// below lines by construction), so the address is one multiply-high, a
// shift and an add.
func CountingLine(words []uint64, h, lines uint64) *[CountingLineWords]uint64 {
	return (*[CountingLineWords]uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(words)), NarrowBlock(h, lines)*(8*CountingLineWords)))
}

// countingMiss4 returns c-1 for the 4-bit counter c at the top 7 bits q
// of g in line ln: its word q>>4 is g>>61, its offset (q&15)*4 is
// g>>55&60. The top bit of the answer is set when c is zero.
func countingMiss4(ln *[CountingLineWords]uint64, g uint64) uint64 {
	return atomic.LoadUint64(&ln[g>>61])>>(g>>55&60)&0xf - 1
}

// countingMiss8 is countingMiss4 for the 8-bit counter at the top 6 bits
// q of g: word q>>3 is g>>61, offset (q&7)*8 is g>>55&56.
func countingMiss8(ln *[CountingLineWords]uint64, g uint64) uint64 {
	return atomic.LoadUint64(&ln[g>>61])>>(g>>55&56)&0xff - 1
}

// countingRound4 returns a word whose top bit is set when one of the
// n <= 9 4-bit counters of line ln at the slices of the multiplier round
// g (NarrowPositions) is zero, 0 for n = 0. Straight code for every n, a
// leaf without a frame: probe j reads the top slice of g << 7j,
// constant shifts all, one load and one variable shift a probe (the
// shifted copy lives in CX, which the variable shift needs anyway).
func countingRound4(ln *[CountingLineWords]uint64, g uint64, n uint32) (miss uint64) {
	_ = &ln[0] // one nil check for every probe, and no read
	switch n {
	case 9:
		miss |= countingMiss4(ln, (g << 56))
		fallthrough
	case 8:
		miss |= countingMiss4(ln, (g << 49))
		fallthrough
	case 7:
		miss |= countingMiss4(ln, (g << 42))
		fallthrough
	case 6:
		miss |= countingMiss4(ln, (g << 35))
		fallthrough
	case 5:
		miss |= countingMiss4(ln, (g << 28))
		fallthrough
	case 4:
		miss |= countingMiss4(ln, (g << 21))
		fallthrough
	case 3:
		miss |= countingMiss4(ln, (g << 14))
		fallthrough
	case 2:
		miss |= countingMiss4(ln, (g << 7))
		fallthrough
	case 1:
		miss |= countingMiss4(ln, g)
	}
	return miss
}

// countingRound8 is countingRound4 for 8-bit counters and n <= 10.
func countingRound8(ln *[CountingLineWords]uint64, g uint64, n uint32) (miss uint64) {
	_ = &ln[0]
	switch n {
	case 10:
		miss |= countingMiss8(ln, (g << 54))
		fallthrough
	case 9:
		miss |= countingMiss8(ln, (g << 48))
		fallthrough
	case 8:
		miss |= countingMiss8(ln, (g << 42))
		fallthrough
	case 7:
		miss |= countingMiss8(ln, (g << 36))
		fallthrough
	case 6:
		miss |= countingMiss8(ln, (g << 30))
		fallthrough
	case 5:
		miss |= countingMiss8(ln, (g << 24))
		fallthrough
	case 4:
		miss |= countingMiss8(ln, (g << 18))
		fallthrough
	case 3:
		miss |= countingMiss8(ln, (g << 12))
		fallthrough
	case 2:
		miss |= countingMiss8(ln, (g << 6))
		fallthrough
	case 1:
		miss |= countingMiss8(ln, g)
	}
	return miss
}

// CountingTest reports whether all k counters of h in its line ln are
// nonzero: NarrowPositions round by round (countingRound4/8).
func CountingTest(ln *[CountingLineWords]uint64, h uint64, k uint32, wide bool) bool {
	g := h * BlockedMul
	var miss uint64
	if wide {
		for ; k > 10; k -= 10 {
			miss |= countingRound8(ln, g, 10)
			g *= BlockedMul
		}
		return (miss|countingRound8(ln, g, k))>>63 == 0
	}
	for ; k > 9; k -= 9 {
		miss |= countingRound4(ln, g, 9)
		g *= BlockedMul
	}
	return (miss|countingRound4(ln, g, k))>>63 == 0
}

// countingTestHashesGeneric is the batch test in Go: the single-key test
// of every hash, one leaf call a key for a single round (the generic
// batch is never slower than a loop of single-key calls).
// NarrowPositions and the layout above are its specification; the tests
// hold it to them (countingPlace). lines*8 <= len(words): CountingTestHashes checked.
func countingTestHashesGeneric(words []uint64, lines uint64, k uint32, wide bool, hs []uint64, out []bool) int {
	out = out[:len(hs)]
	hits := 0
	switch {
	case !wide && k <= 9:
		for i, h := range hs {
			ok := countingRound4(CountingLine(words, h, lines), h*BlockedMul, k)>>63 == 0
			out[i] = ok
			hits += int(b2u(ok))
		}
	case wide && k <= 10:
		for i, h := range hs {
			ok := countingRound8(CountingLine(words, h, lines), h*BlockedMul, k)>>63 == 0
			out[i] = ok
			hits += int(b2u(ok))
		}
	default:
		for i, h := range hs {
			ok := CountingTest(CountingLine(words, h, lines), h, k, wide)
			out[i] = ok
			hits += int(b2u(ok))
		}
	}
	return hits
}

// b2u is 1 for true: a hit count without a branch on the answer.
func b2u(b bool) uint {
	var u uint
	if b {
		u = 1
	}
	return u
}
