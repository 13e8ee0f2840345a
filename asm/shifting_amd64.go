//go:build amd64 && gc && !purego

package asm

// shiftingTestHashes runs whole vectors of hashes (8 lanes on AVX-512, 4
// on AVX2) in the kernel chosen once per call and the remainder in the
// generic code.
func shiftingTestHashes(words []uint64, m uint64, pairs uint32, hs []uint64, out []bool) int {
	var n, hits int
	switch {
	case level >= avx512:
		n = len(hs) &^ 7
		if n > 0 {
			hits = shiftingTestHashesAVX512(words, hs[:n], out[:n], m, uint64(pairs))
		}
	case level >= avx2:
		n = len(hs) &^ 3
		if n > 0 {
			hits = shiftingTestHashesAVX2(words, hs[:n], out[:n], m, uint64(pairs))
		}
	}
	return hits + shiftingTestHashesGeneric(words, m, pairs, hs[n:], out[n:])
}
