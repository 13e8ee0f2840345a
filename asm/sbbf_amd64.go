//go:build amd64 && gc && !purego

package asm

func sbbfTestHashes(words []uint64, hs []uint64, out []bool) int {
	switch level {
	case avx512:
		return sbbfTestHashesAVX512(words, hs, out, prefetchDist(words))
	case avx2:
		return sbbfTestHashesAVX2(words, hs, out, prefetchDist(words))
	}
	return sbbfTestHashesGeneric(words, hs, out)
}

func sbbfAddHashes(words []uint64, hs []uint64) {
	switch level {
	case avx512:
		sbbfAddHashesAVX512(words, hs, prefetchDist(words))
	case avx2:
		sbbfAddHashesAVX2(words, hs, prefetchDist(words))
	default:
		sbbfAddHashesGeneric(words, hs)
	}
}

// xxh64Uint64s dispatches the batch XXH64 once per call: the vector
// kernel takes the largest multiple of its width, the Generic twin the
// tail.
func xxh64Uint64s(dst, ks []uint64) {
	var n int
	switch level {
	case avx512:
		n = len(ks) &^ 7
		if n > 0 {
			xxh64Uint64sAVX512(dst[:n], ks[:n])
		}
	case avx2:
		n = len(ks) &^ 3
		if n > 0 {
			xxh64Uint64sAVX2(dst[:n], ks[:n])
		}
	}
	xxh64Uint64sGeneric(dst[n:len(ks)], ks[n:])
}
