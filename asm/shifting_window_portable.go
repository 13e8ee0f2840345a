//go:build !amd64 && !arm64

package asm

// ShiftingWindow returns bits pos .. pos+56 of the bit array words in bits
// 0 .. 56 (shiftingWindowAligned), for architectures where an unaligned
// load is slow or illegal; it answers what the unaligned form answers.
// The bits above 56 are unspecified.
func ShiftingWindow(words []uint64, pos uint64) uint64 { return shiftingWindowAligned(words, pos) }
