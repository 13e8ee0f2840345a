package asm

import (
	"github.com/filterengine/filterengine/internal/hashing"
)

// HashUint64s sets dst[i] = engine.HashUint64Seed(ks[i], seed) for every i.
// dst must be at least as long as ks.
func HashUint64s(dst, ks []uint64, seed uint64) {
	if len(dst) < len(ks) {
		panic("asm: HashUint64s dst shorter than keys")
	}
	hashUint64s(dst[:len(ks)], ks, hashing.Uint64Key(seed))
}

// hashUint64sGeneric is the specification of the batch XXH3 of 8-byte
// keys; key is hashing.Uint64Key(seed).
func hashUint64sGeneric(dst, ks []uint64, key uint64) {
	for i, k := range ks {
		dst[i] = hashing.HashUint64Keyed(k, key)
	}
}
