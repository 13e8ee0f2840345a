package asm

import (
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/cpulevel"
	"github.com/filterengine/filterengine/internal/hashing"
)

// The cache-line-blocked Bloom filter's scheme, shared by the blocked
// family, its kernels and any family that converts to it. A filter is an
// array of 64-byte lines of eight 64-bit words; a key with 64-bit hash h
// and k probes touches exactly one line:
//
//	line = hashing.Reduce(h, lines)
//	g_0  = h * BlockedMul, g_(r+1) = g_r * BlockedMul
//	round r < k/8 sets in every word w the bit (g_r >> (58 - 6w)) & 63;
//	if k%8 != 0, a last round sets that bit of g_(k/8) only in the k%8
//	words w with (w - s) & 7 < k%8, where s = (g_0 >> 13) & 7.
//
// The line comes from the high bits of h; the multiply spreads the low
// bits over the top 48 bits of g, so the in-line bits stay independent of
// the line even when the line count uses most of h. One bit per word
// lets SIMD code build a key's whole 512-bit mask with one variable shift
// per word and test it against the line with one AND-NOT.

// BlockedMul is the odd multiplier that derives the in-line bits (the
// 64-bit golden ratio).
const BlockedMul = 0x9e3779b97f4a7c15

// BlockedLine returns the line index of hash h in a filter of lines lines.
func BlockedLine(h, lines uint64) uint64 { return hashing.Reduce(h, lines) }

// BlockedMask returns the bits hash h sets with k probes, word by word of
// its line. k must be in [1, engine.MaxK].
func BlockedMask(h uint64, k uint32) (mask [8]uint64) {
	g := h * BlockedMul
	s := (g >> 13) & 7
	for r := k >> 3; r > 0; r-- {
		for w := range mask {
			mask[w] |= 1 << blockedBit(g, uint(w))
		}
		g *= BlockedMul
	}
	if rem := uint64(k & 7); rem != 0 {
		for w := range mask {
			if (uint64(w)-s)&7 < rem {
				mask[w] |= 1 << blockedBit(g, uint(w))
			}
		}
	}
	return mask
}

// checkBlocked panics on arguments no filter can pass; the kernels rely
// on them. Words without a line are a zero blocked.Filter's, and get its
// message.
func checkBlocked(words []uint64, k uint32) {
	if len(words) == 0 {
		panic(blockedZero)
	}
	if len(words)%8 != 0 || k == 0 || k > engine.MaxK {
		panic("asm: blocked filter needs a whole number of lines and k in [1, 64]")
	}
}

// BlockedTestHashes sets out[i] to whether hs[i] may be in the blocked
// filter words (a whole number of 8-word lines) with k probes, and
// returns the number of hits. out must be at least as long as hs. Words
// without a line hold no key: every answer is false.
func BlockedTestHashes(words []uint64, k uint32, hs []uint64, out []bool) int {
	out = out[:len(hs)]
	if len(words) == 0 {
		clear(out)
		return 0
	}
	checkBlocked(words, k)
	return blockedTestHashes(words, k, hs, out)
}

// BlockedTestHashesAhead is BlockedTestHashes of the first len(out)
// hashes of hs (len(out) <= len(hs)): the hashes past them are the
// next keys', whose lines the kernel prefetches while it tests these,
// so a caller that hashes its keys a chunk at a time keeps the
// prefetch window full across chunks.
func BlockedTestHashesAhead(words []uint64, k uint32, hs []uint64, out []bool) int {
	if len(out) > len(hs) {
		panic("asm: BlockedTestHashesAhead needs len(out) <= len(hs)")
	}
	if len(words) == 0 {
		clear(out)
		return 0
	}
	checkBlocked(words, k)
	return blockedTestHashes(words, k, hs, out)
}

// BlockedAddHashesAhead is BlockedAddHashes of the first n hashes of hs,
// prefetching the lines of the hashes past them as
// BlockedTestHashesAhead does.
func BlockedAddHashesAhead(words []uint64, k uint32, hs []uint64, n int) {
	if n < 0 || n > len(hs) {
		panic("asm: BlockedAddHashesAhead needs 0 <= n <= len(hs)")
	}
	checkBlocked(words, k)
	blockedAddHashes(words, k, hs, n)
}

// BlockedAddHashes adds every hash in hs to the blocked filter words with
// k probes. Concurrent use needs the atomic form in the blocked family.
// Words without a line panic with the message of a zero blocked.Filter.
func BlockedAddHashes(words []uint64, k uint32, hs []uint64) {
	checkBlocked(words, k)
	blockedAddHashes(words, k, hs, len(hs))
}

// blockedTestHashesGeneric is the specification of the batch test: the
// single-key probe, BlockedTestHash, over the slice, so the batch path
// without assembly (purego, arm64) is the single-key loop itself.
func blockedTestHashesGeneric(words []uint64, k uint32, hs []uint64, out []bool) int {
	hits := 0
	out = out[:len(hs)]
	for i, h := range hs {
		hit := BlockedTestHash(words, h, k)
		out[i] = hit
		if hit {
			hits++
		}
	}
	return hits
}

// blockedAddHashesGeneric is the specification of the batch add: BlockedAddHash
// over the slice.
func blockedAddHashesGeneric(words []uint64, k uint32, hs []uint64) {
	for _, h := range hs {
		BlockedAddHash(words, h, k)
	}
}

// blockedTestUint64sGeneric is the specification of the grouped test of
// 8-byte keys: each key hashed as engine.HashUint64Seed hashes it (key is
// hashing.Uint64Key of the seed) and tested by BlockedTestHash.
func blockedTestUint64sGeneric(words []uint64, k uint32, key uint64, ks []uint64, out []bool) int {
	hits := 0
	out = out[:len(ks)]
	for i, x := range ks {
		hit := BlockedTestHash(words, hashing.HashUint64Keyed(x, key), k)
		out[i] = hit
		if hit {
			hits++
		}
	}
	return hits
}

// blockedAddUint64sGeneric is the specification of the grouped add of
// 8-byte keys: BlockedAddHash of each key's hash.
func blockedAddUint64sGeneric(words []uint64, k uint32, key uint64, ks []uint64) {
	for _, x := range ks {
		BlockedAddHash(words, hashing.HashUint64Keyed(x, key), k)
	}
}

// The prefetch convention of the blocked and SBBF kernels: every kernel
// takes dist, the number of keys ahead whose line (block) it prefetches
// while it works on the current key, 0 for none. prefetchDist chooses it
// from the filter's size: from prefetchBytes (1 MiB, more than the L2
// cache of most cores) up, a line costs an L3 or DRAM round trip that a
// prefetch issued prefetchKeys keys ahead overlaps with work on the keys
// in between; below it, prefetching only adds work.
//
// The blocked filter's own batch kernels prefetch further ahead: the
// key-at-a-time ones blockedAhead keys, the grouped ones (which prefetch
// into L1 or L2, see BlockedFarL1) BlockedGroupAhead groups of
// eight: with nothing but the probe between two keys, a line from DRAM
// takes that many keys' work to arrive (Boost.Bloom's bulk operations
// keep 64 one-line keys in flight for the same reason), and
// BlockedTestHashesAhead carries the window over from one chunk of
// hashes to the next.
const (
	prefetchBytes = 1 << 20
	prefetchKeys  = 16
	blockedAhead  = 64
)

// BlockedGroupAhead is how many groups of eight keys before it probes a
// group the grouped kernels prepare it (hash, line, counts); they
// prefetch the lines of the group prepared a round earlier, 8 *
// (BlockedGroupAhead - 1) to 8 * BlockedGroupAhead - 1 keys ahead.
// gen/blocked builds the kernels from it.
const BlockedGroupAhead = 12

// The grouped kernels' pf argument: 0 below prefetchBytes (no
// prefetch), else the cache level their far prefetches fill,
// BlockedFarL2 (PREFETCHT1) or BlockedFarL1 (PREFETCHT0), as
// blockedFarL1 chooses.
const (
	BlockedFarL2 = 1
	BlockedFarL1 = 2
)

// blockedFarL1 has the grouped kernels prefetch into L1 rather than L2
// on the cores where that is faster (cpulevel.PrefetchFarL1); the tests
// run both.
var blockedFarL1 = cpulevel.PrefetchFarL1()

// blockedVBMI runs the grouped kernels' VBMI form at the avx512 level,
// where the CPU has AVX-512 VBMI; the tests run both forms.
var blockedVBMI = cpulevel.VBMI()

// BlockedAhead is how many hashes past a chunk a caller of
// BlockedTestHashesAhead and BlockedAddHashesAhead gives the kernels to
// prepare and prefetch: as far as the grouped kernels prepare and the
// key-at-a-time ones prefetch.
const BlockedAhead = max(8*BlockedGroupAhead, blockedAhead)

// BlockedGroupPrefetch is the grouped kernels' pf for a filter of words:
// 0 below prefetchBytes, else the far prefetch's level. The bench
// module's floors of those kernels (built by the same generator) take
// it from here.
func BlockedGroupPrefetch(words []uint64) int {
	switch {
	case !prefetchBytesOf(words):
		return 0
	case blockedFarL1:
		return BlockedFarL1
	}
	return BlockedFarL2
}

// prefetchBytesOf reports whether a filter of words is large enough
// (prefetchBytes) for the kernels to prefetch its lines.
func prefetchBytesOf(words []uint64) bool { return len(words)*8 >= prefetchBytes }

// BlockedTestUint64s sets out[i] to whether the blocked filter words
// (k probes) may hold engine.HashUint64Seed(ks[i], seed), for the first
// done keys, and returns the hits among them and done: the keys the
// level's grouped kernel takes, a multiple of 8, or 0 where it has none
// (other levels and builds, k > 8, 2^32 lines or more, a filter without
// lines). The caller answers the keys from done on another way. out must
// be at least as long as ks.
func BlockedTestUint64s(words []uint64, k uint32, seed uint64, ks []uint64, out []bool) (hits, done int) {
	n := blockedGroupKeys(words, k, len(ks))
	if n == 0 {
		return 0, 0
	}
	return blockedTestUint64s(words, k, hashing.Uint64Key(seed), ks[:n], out[:n]), n
}

// BlockedAddUint64s adds engine.HashUint64Seed(ks[i], seed) to the
// blocked filter words for the first done keys and returns done, as
// BlockedTestUint64s chooses it.
func BlockedAddUint64s(words []uint64, k uint32, seed uint64, ks []uint64) (done int) {
	n := blockedGroupKeys(words, k, len(ks))
	if n > 0 {
		blockedAddUint64s(words, k, hashing.Uint64Key(seed), ks[:n])
	}
	return n
}
