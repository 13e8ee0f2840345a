package shifting

import "sync/atomic"

// windowAtomic is window built from two atomic aligned loads, for readers
// that run concurrently with atomic writers.
func windowAtomic(words []uint64, pos uint64) uint64 {
	i, s := pos>>6, pos&63
	return atomic.LoadUint64(&words[i])>>s | atomic.LoadUint64(&words[i+1])<<(64-s)
}

// setBit sets bit pos of words with a plain OR.
func setBit(words []uint64, pos uint64) { words[pos>>6] |= 1 << (pos & 63) }

// setBitAtomic sets bit pos with an atomic OR and reports whether it was
// already set.
func setBitAtomic(words []uint64, pos uint64) bool {
	bit := uint64(1) << (pos & 63)
	return atomic.OrUint64(&words[pos>>6], bit)&bit != 0
}
