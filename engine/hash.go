package engine

import (
	"encoding/binary"

	"github.com/filterengine/filterengine/internal/hashing"
	"github.com/zeebo/xxh3"
)

// Hash returns XXH3-64 of key with seed 0.
func Hash(key []byte) uint64 { return HashSeed(key, 0) }

// HashSeed returns XXH3-64 of key with the given seed; HashSeed(key, 0) ==
// Hash(key). An 8-byte key, the common integer or ID key, takes XXH3's
// 4..8-byte formula inline (HashUint64Seed of its little-endian value):
// the same hash in a fraction of the general function's instructions.
func HashSeed(key []byte, seed uint64) uint64 {
	if len(key) == 8 {
		return HashUint64Seed(binary.LittleEndian.Uint64(key), seed)
	}
	return xxh3.HashSeed(key, seed)
}

// HashString returns Hash of the bytes of s. It neither copies s nor
// allocates, whatever its length, where f.Test([]byte(s)) may.
func HashString(s string) uint64 { return xxh3.HashString(s) }

// HashStringSeed returns HashSeed of the bytes of s without copying them.
func HashStringSeed(s string, seed uint64) uint64 { return xxh3.HashStringSeed(s, seed) }

// HashUint64 returns Hash of the 8 little-endian bytes of k, without
// building the byte slice. It is the scalar specification of the batch
// kernel behind every family's AddUint64s and TestUint64s.
func HashUint64(k uint64) uint64 { return HashUint64Seed(k, 0) }

// HashUint64Seed returns HashSeed of the 8 little-endian bytes of k.
func HashUint64Seed(k, seed uint64) uint64 {
	return hashing.HashUint64Keyed(k, hashing.Uint64Key(seed))
}
