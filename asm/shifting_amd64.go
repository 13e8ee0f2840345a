//go:build amd64 && gc && !purego

package asm

// shiftingTest runs whole vectors of hashes (8 lanes on AVX-512, 4 on
// AVX2) in the kernel and the remainder in the generic code.
func shiftingTest(words []uint64, m uint64, pairs uint32, hs []uint64, out []bool) int {
	var n, hits int
	switch {
	case level >= AVX512:
		n = len(hs) &^ 7
		if n > 0 {
			hits = shiftingTestAVX512(&words[0], m, uint64(pairs), &hs[0], &out[0], n)
		}
	case level >= AVX2:
		n = len(hs) &^ 3
		if n > 0 {
			hits = shiftingTestAVX2(&words[0], m, uint64(pairs), &hs[0], &out[0], n)
		}
	}
	return hits + shiftingTestGeneric(words, m, pairs, hs[n:], out[n:])
}
