//go:build amd64 && gc && !purego

package asm

// hashUint64s dispatches the batch hash; the AVX2 and AVX-512 kernels are
// added by gen/hash.
func hashUint64s(dst, ks []uint64, key uint64) { hashUint64sGeneric(dst, ks, key) }
