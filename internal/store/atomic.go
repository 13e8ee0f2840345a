package store

import (
	"math/bits"
	"sync/atomic"
)

// LoadLE32 atomically loads the aligned 32-bit word *p of little-endian
// bytes: bit i of the result is bit i%8 of byte i/8 of the word's memory
// on any byte order. Readers of packed cells that other goroutines raise
// by compare-and-swap use it, so every read sees some whole CAS result
// and the race detector sees the pairing.
func LoadLE32(p *uint32) uint32 {
	v := atomic.LoadUint32(p)
	if BigEndian {
		v = bits.ReverseBytes32(v)
	}
	return v
}

// SwapLE32 converts between a native 32-bit word and its little-endian
// value (the identity on little-endian machines), for the value a CAS
// compares and stores.
func SwapLE32(v uint32) uint32 {
	if BigEndian {
		v = bits.ReverseBytes32(v)
	}
	return v
}
