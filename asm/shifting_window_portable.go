//go:build !amd64 && !arm64

package asm

// ShiftingWindow returns bits pos .. pos+56 of the bit array words in bits
// 0 .. 56 from the two aligned words that hold them, for architectures
// where an unaligned load is slow or illegal; it answers what the
// unaligned form answers. The bits above 56 are unspecified.
func ShiftingWindow(words []uint64, pos uint64) uint64 {
	i, s := pos>>6, pos&63
	return words[i]>>s | words[i+1]<<(64-s)
}
