//go:build amd64 && gc && !purego

package asm

// hashUint64s dispatches the batch hash once per call: the vector kernel
// takes the largest multiple of its width, the Generic twin the tail.
func hashUint64s(dst, ks []uint64, key uint64) {
	var n int
	switch level {
	case avx512:
		n = len(ks) &^ 7
		if n > 0 {
			hashUint64sAVX512(dst[:n], ks[:n], key)
		}
	case avx2:
		n = len(ks) &^ 3
		if n > 0 {
			hashUint64sAVX2(dst[:n], ks[:n], key)
		}
	}
	hashUint64sGeneric(dst[n:len(ks)], ks[n:], key)
}
