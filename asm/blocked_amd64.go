//go:build amd64 && gc && !purego

package asm

// prefetchDist is the dist the kernels get for a filter of words.
func prefetchDist(words []uint64) int {
	if prefetchBytesOf(words) {
		return prefetchKeys
	}
	return 0
}

// blockedAheadDist is the dist of the blocked filter's own kernels
// (blockedAhead for a filter large enough to prefetch).
func blockedAheadDist(words []uint64) int {
	if prefetchBytesOf(words) {
		return blockedAhead
	}
	return 0
}

func blockedTestHashes(words []uint64, k uint32, hs []uint64, out []bool) int {
	// Whole groups of eight keys through the grouped kernel, the rest key
	// by key.
	hits, n := 0, blockedGroupKeys(words, k, len(out))
	if n > 0 {
		pf := BlockedGroupPrefetch(words)
		switch {
		case level == avx512 && blockedVBMI:
			hits = blockedTestGroupsAVX512VBMI(words, hs, out[:n], k, pf)
		case level == avx512:
			hits = blockedTestGroupsAVX512(words, hs, out[:n], k, pf)
		default:
			hits = blockedTestGroupsAVX2(words, hs, out[:n], k, pf)
		}
		if n == len(out) {
			return hits
		}
		hs, out = hs[n:], out[n:]
	}
	switch level {
	case avx512:
		return hits + blockedTestHashesAVX512(words, hs, out, k, blockedAheadDist(words))
	case avx2:
		return hits + blockedTestHashesAVX2(words, hs, out, k, blockedAheadDist(words))
	}
	return blockedTestHashesGeneric(words, k, hs[:len(out)], out)
}

func blockedAddHashes(words []uint64, k uint32, hs []uint64, n int) {
	if g := blockedGroupKeys(words, k, n); g > 0 {
		pf := BlockedGroupPrefetch(words)
		switch {
		case level == avx512 && blockedVBMI:
			blockedAddGroupsAVX512VBMI(words, hs, g, k, pf)
		case level == avx512:
			blockedAddGroupsAVX512(words, hs, g, k, pf)
		default:
			blockedAddGroupsAVX2(words, hs, g, k, pf)
		}
		if g == n {
			return
		}
		hs, n = hs[g:], n-g
	}
	switch level {
	case avx512:
		blockedAddHashesAVX512(words, hs, n, k, blockedAheadDist(words))
	case avx2:
		blockedAddHashesAVX2(words, hs, n, k, blockedAheadDist(words))
	default:
		blockedAddHashesGeneric(words, k, hs[:n])
	}
}

func blockedTestSetHashes(s BlockedSet, hs []uint64, out []bool) int {
	switch level {
	case avx512:
		return blockedTestSetHashesAVX512(s.table, hs, out, s.k, s.npref, prefetchKeys)
	case avx2:
		return blockedTestSetHashesAVX2(s.table, hs, out, s.k, s.npref, prefetchKeys)
	}
	return blockedTestSetHashesGeneric(s.filters, s.k, hs, out)
}

func blockedTestSetHash(s BlockedSet, h uint64) bool {
	switch level {
	case avx512:
		return blockedTestSetHashAVX512(s.table, h, s.k)
	case avx2:
		return blockedTestSetHashAVX2(s.table, h, s.k)
	}
	return blockedTestSetHashGeneric(s.filters, s.k, h)
}

func blockedTestStrideHash(words []uint64, lines, gens int, h uint64, k uint32) bool {
	switch level {
	case avx512:
		return blockedTestStrideHashAVX512(words, lines, gens, h, k)
	case avx2:
		return blockedTestStrideHashAVX2(words, lines, gens, h, k)
	}
	return blockedTestStrideHashGeneric(words, lines, gens, h, k)
}

func blockedTestStrideHashes(words []uint64, gens int, k uint32, hs []uint64, out []bool) int {
	lines := len(words) / gens / 8
	switch level {
	case avx512:
		return blockedTestStrideHashesAVX512(words, hs, out, k, lines, gens, prefetchDist(words))
	case avx2:
		return blockedTestStrideHashesAVX2(words, hs, out, k, lines, gens, prefetchDist(words))
	}
	return blockedTestStrideHashesGeneric(words, gens, k, hs, out)
}

// blockedAddStrideHashes hands the kernel words from filter gen's first
// line on, and the bytes from one of its lines to the next.
func blockedAddStrideHashes(words []uint64, gens, gen int, k uint32, hs []uint64) {
	lines := len(words) / gens / 8
	switch level {
	case avx512:
		blockedAddStrideHashesAVX512(words[gen*8:], hs, k, lines, gens*64, prefetchDist(words))
	case avx2:
		blockedAddStrideHashesAVX2(words[gen*8:], hs, k, lines, gens*64, prefetchDist(words))
	default:
		blockedAddStrideHashesGeneric(words, gens, gen, k, hs)
	}
}

// blockedGroupKeys is how many of n keys the grouped kernels take for a
// filter of words with k probes: the whole groups of eight, from avx2
// up, for k <= 8 and fewer than 2^32 lines; else 0.
func blockedGroupKeys(words []uint64, k uint32, n int) int {
	if level < avx2 || k == 0 || k > 8 || len(words) == 0 || len(words)%8 != 0 || uint64(len(words)) >= 8<<32 {
		return 0
	}
	return n &^ 7
}

func blockedTestUint64s(words []uint64, k uint32, key uint64, ks []uint64, out []bool) int {
	pf := BlockedGroupPrefetch(words)
	switch {
	case level == avx512 && blockedVBMI:
		return blockedTestUint64sAVX512VBMI(words, ks, out, k, key, pf)
	case level == avx512:
		return blockedTestUint64sAVX512(words, ks, out, k, key, pf)
	case level == avx2:
		return blockedTestUint64sAVX2(words, ks, out, k, key, pf)
	}
	return blockedTestUint64sGeneric(words, k, key, ks, out)
}

func blockedAddUint64s(words []uint64, k uint32, key uint64, ks []uint64) {
	pf := BlockedGroupPrefetch(words)
	switch {
	case level == avx512 && blockedVBMI:
		blockedAddUint64sAVX512VBMI(words, ks, k, key, pf)
	case level == avx512:
		blockedAddUint64sAVX512(words, ks, k, key, pf)
	case level == avx2:
		blockedAddUint64sAVX2(words, ks, k, key, pf)
	default:
		blockedAddUint64sGeneric(words, k, key, ks)
	}
}
