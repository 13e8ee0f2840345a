package asm

import (
	"math/bits"
	"sync/atomic"

	"github.com/filterengine/filterengine/engine"
)

// Counting filter layout, shared by the counting package and its batch
// kernels. A counting line mirrors one blocked line (see BlockedLine and
// BlockedMask): 512 counters, one per bit of the blocked line, so a key
// has exactly the blocked family's positions. Bit b of mask word w is
// counter w*64+b of the line.
//
// The counters of mask word w form one chunk of CountingChunkWords words:
// 4 words (32 bytes) of 4-bit counters or 8 words (one 64-byte cache
// line) of 8-bit counters. In a 4-bit chunk counter b lives in byte b&31,
// low nibble for b < 32, high nibble for b >= 32, so one vector AND and
// compare per nibble half turns a chunk into the 64-bit mask of its zero
// counters, bit b for counter b. In an 8-bit chunk counter b is byte b.
// A line is 8 chunks: 32 words (256 bytes) or 64 words (512 bytes).

// CountingChunkWords is the number of 64-bit words of one chunk (the
// counters of one blocked word).
func CountingChunkWords(wide bool) uint64 {
	if wide {
		return 8
	}
	return 4
}

// CountingLineWords is the number of 64-bit words of one line.
func CountingLineWords(wide bool) uint64 { return 8 * CountingChunkWords(wide) }

// CountingPlace returns where counter b (0..63) of a chunk lives: the
// word inside the chunk and the bit offset of the counter in that word.
func CountingPlace(b uint64, wide bool) (word, shift uint64) {
	if wide {
		return b >> 3 & 7, (b & 7) << 3
	}
	return b >> 3 & 3, (b&7)<<3 | (b>>5&1)<<2
}

// CountingTestHashes sets out[i] to whether all counters of hs[i] (the
// set bits of BlockedMask(hs[i], k) in line BlockedLine(hs[i], lines))
// are nonzero in the counting filter words (lines lines; wide selects
// 8-bit counters, else 4-bit) and returns the number of true answers.
// Other goroutines may update words concurrently with atomic operations;
// each word is read atomically. k must be in [1, BlockedMaxK], words at
// least lines*CountingLineWords(wide) long and out at least as long as hs.
func CountingTestHashes(words []uint64, lines uint64, k uint32, wide bool, hs []uint64, out []bool) int {
	if len(out) < len(hs) {
		panic("asm: CountingTestHashes out shorter than hashes")
	}
	if lines == 0 || uint64(len(words))/CountingLineWords(wide) < lines || k == 0 || k > BlockedMaxK || k > engine.MaxK {
		panic("asm: CountingTestHashes bad filter geometry")
	}
	return countingTestHashes(words, lines, k, wide, hs, out[:len(hs)])
}

// CountingPrefetch asks for the lines of every hash of hs in the counting
// filter words (lines lines; wide selects 8-bit counters, else 4-bit) to
// be brought into the cache ahead of their updates; it changes nothing.
// A locked CAS waits for every earlier load, so a batch that updates key
// after key serializes the keys' cache misses unless their lines were
// requested first. words must hold at least lines*CountingLineWords(wide)
// words.
func CountingPrefetch(words []uint64, lines uint64, wide bool, hs []uint64) {
	if lines == 0 || uint64(len(words))/CountingLineWords(wide) < lines {
		panic("asm: CountingPrefetch bad filter geometry")
	}
	countingPrefetch(words, lines, wide, hs)
}

// prefetchSink keeps countingPrefetchGeneric's loads from being dead.
var prefetchSink atomic.Uint64

// countingPrefetchGeneric is the specification of the prefetch: it loads
// one word of each cache line of each hash's line (Go has no portable
// prefetch instruction) and has no effect on the filter.
func countingPrefetchGeneric(words []uint64, lines uint64, wide bool, hs []uint64) {
	lineWords := CountingLineWords(wide)
	var acc uint64
	for _, h := range hs {
		line := words[BlockedLine(h, lines)*lineWords:][:lineWords]
		for c := uint64(0); c < lineWords; c += 8 {
			acc |= atomic.LoadUint64(&line[c])
		}
	}
	if acc == 1<<63 {
		prefetchSink.Store(acc)
	}
}

// countingTestHashesGeneric is the specification of the batch test.
func countingTestHashesGeneric(words []uint64, lines uint64, k uint32, wide bool, hs []uint64, out []bool) int {
	lineWords, chunkWords := CountingLineWords(wide), CountingChunkWords(wide)
	counter := uint64(0xf)
	if wide {
		counter = 0xff
	}
	hits := 0
	for i, h := range hs {
		line := words[BlockedLine(h, lines)*lineWords:][:lineWords]
		mask := BlockedMask(h, k)
		present := true
	key:
		for w, m := range mask {
			for ; m != 0; m &= m - 1 {
				word, shift := CountingPlace(uint64(bits.TrailingZeros64(m)), wide)
				if atomic.LoadUint64(&line[uint64(w)*chunkWords+word])>>shift&counter == 0 {
					present = false
					break key
				}
			}
		}
		out[i] = present
		if present {
			hits++
		}
	}
	return hits
}
