//go:build amd64 || arm64

package asm

import "unsafe"

// ShiftingWindow returns bits pos .. pos+56 of the little-endian bit array
// words in bits 0 .. 56: one unaligned 8-byte load at byte pos/8 shifted
// right by pos mod 8, as the kernels read it. The caller guarantees that
// the load is in bounds (pos < m and len(words) >= (m-1)/64 + 2); the bits
// above 56 are unspecified.
func ShiftingWindow(words []uint64, pos uint64) uint64 {
	p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(words)), pos>>3)
	return *(*uint64)(p) >> (pos & 7)
}
