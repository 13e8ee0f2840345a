//go:build amd64 && gc && !purego

package asm

// The prefetch convention of the blocked and SBBF kernels: every kernel
// takes dist, the number of keys ahead whose line (block) it prefetches
// while it works on the current key, 0 for none. prefetchDist chooses it
// from the filter's size: past the 512 KiB L2 of the machine measured
// (prefetchBytes), a line costs an L3 or DRAM round trip that a prefetch
// issued prefetchKeys keys ahead overlaps with work on the keys in
// between; below it, prefetching only adds instructions.
const (
	prefetchBytes = 1 << 20
	prefetchKeys  = 16
)

// prefetchDist is the dist the kernels get for a filter of words.
func prefetchDist(words []uint64) int {
	if len(words)*8 >= prefetchBytes {
		return prefetchKeys
	}
	return 0
}

func blockedTestHashes(words []uint64, k uint32, hs []uint64, out []bool) int {
	switch level {
	case AVX512:
		return blockedTestHashesAVX512(words, hs, out, k, prefetchDist(words))
	case AVX2:
		return blockedTestHashesAVX2(words, hs, out, k, prefetchDist(words))
	}
	return blockedTestHashesGeneric(words, k, hs, out)
}

func blockedAddHashes(words []uint64, k uint32, hs []uint64) {
	switch level {
	case AVX512:
		blockedAddHashesAVX512(words, hs, k, prefetchDist(words))
	case AVX2:
		blockedAddHashesAVX2(words, hs, k, prefetchDist(words))
	default:
		blockedAddHashesGeneric(words, k, hs)
	}
}

// multiPrefetch returns how many leading filters are large enough for the
// multi-filter kernels to prefetch their lines (prefetchDist).
func multiPrefetch(filters [][]uint64) int {
	n := 0
	for n < len(filters) && prefetchDist(filters[n]) > 0 {
		n++
	}
	return n
}

func blockedTestMultiHashes(filters [][]uint64, k uint32, hs []uint64, out []bool) int {
	switch level {
	case AVX512:
		return blockedTestMultiHashesAVX512(filters, hs, out, k, multiPrefetch(filters), prefetchKeys)
	case AVX2:
		return blockedTestMultiHashesAVX2(filters, hs, out, k, multiPrefetch(filters), prefetchKeys)
	}
	return blockedTestMultiHashesGeneric(filters, k, hs, out)
}

// blockedTestMultiHash runs the multi-filter kernel on one key, without
// prefetching: a single key has no next key to fetch ahead for.
func blockedTestMultiHash(filters [][]uint64, k uint32, h uint64) bool {
	hs := [1]uint64{h}
	var out [1]bool
	switch level {
	case AVX512:
		blockedTestMultiHashesAVX512(filters, hs[:], out[:], k, 0, 0)
	case AVX2:
		blockedTestMultiHashesAVX2(filters, hs[:], out[:], k, 0, 0)
	default:
		return blockedTestMultiHashGeneric(filters, k, h)
	}
	return out[0]
}

func blockedTestStrideHashes(words []uint64, gens int, k uint32, hs []uint64, out []bool) int {
	lines := len(words) / gens / 8
	switch level {
	case AVX512:
		return blockedTestStrideHashesAVX512(words, hs, out, k, lines, gens, prefetchDist(words))
	case AVX2:
		return blockedTestStrideHashesAVX2(words, hs, out, k, lines, gens, prefetchDist(words))
	}
	return blockedTestStrideHashesGeneric(words, gens, k, hs, out)
}

// blockedAddStrideHashes hands the kernel words from filter gen's first
// line on, and the bytes from one of its lines to the next.
func blockedAddStrideHashes(words []uint64, gens, gen int, k uint32, hs []uint64) {
	lines := len(words) / gens / 8
	switch level {
	case AVX512:
		blockedAddStrideHashesAVX512(words[gen*8:], hs, k, lines, gens*64, prefetchDist(words))
	case AVX2:
		blockedAddStrideHashesAVX2(words[gen*8:], hs, k, lines, gens*64, prefetchDist(words))
	default:
		blockedAddStrideHashesGeneric(words, gens, gen, k, hs)
	}
}
