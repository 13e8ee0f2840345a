//go:build amd64 || arm64

package shifting

import "unsafe"

// window returns bits pos .. pos+56 of the little-endian bit array words in
// bits 0 .. 56: one unaligned 8-byte load at byte pos/8 shifted right by
// pos mod 8. The caller guarantees pos < m and len(words) >= padWords(m),
// which keeps the load in bounds; the bits above 56 are unspecified.
func window(words []uint64, pos uint64) uint64 {
	p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(words)), pos>>3)
	return *(*uint64)(p) >> (pos & 7)
}
