package engine

import (
	"encoding/binary"
	"math/bits"

	"github.com/filterengine/filterengine/internal/hashconst"
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

// HashKeyed is HashSeed(key, seed) with k = Uint64Key(seed) precomputed,
// the form a filter's single-key methods use: an 8-byte key is hashed
// inline, without a call.
func HashKeyed(key []byte, seed, k uint64) uint64 {
	if len(key) == 8 {
		return HashUint64Keyed(binary.LittleEndian.Uint64(key), k)
	}
	return xxh3.HashSeed(key, seed)
}

// HashString returns Hash of the bytes of s. It neither copies s nor
// allocates, whatever its length, where f.Test([]byte(s)) may.
func HashString(s string) uint64 { return xxh3.HashString(s) }

// HashStringSeed returns HashSeed of the bytes of s without copying them.
func HashStringSeed(s string, seed uint64) uint64 { return xxh3.HashStringSeed(s, seed) }

// XXH3 constants for 4..8-byte inputs (internal/hashconst).
const (
	xxh3Secret8to24 = hashconst.XXH3Secret8to24
	xxh3RRMXMXMul   = hashconst.XXH3RRMXMXMul
)

// HashUint64 returns Hash of the 8 little-endian bytes of k, without
// building the byte slice. It is the scalar specification of the batch
// kernel asm.HashUint64s.
func HashUint64(k uint64) uint64 { return HashUint64Seed(k, 0) }

// HashUint64Seed returns HashSeed of the 8 little-endian bytes of k.
func HashUint64Seed(k, seed uint64) uint64 { return HashUint64Keyed(k, Uint64Key(seed)) }

// HashUint64Keyed is HashUint64Seed with the seed's constant precomputed
// by Uint64Key, the form batch loops use.
func HashUint64Keyed(k, key uint64) uint64 { return rrmxmx8(bits.RotateLeft64(k, 32) ^ key) }

// Uint64Key returns the per-seed constant XOR-ed into a rotated 8-byte key
// by XXH3's 4..8-byte path; batch kernels hoist it out of their loop.
func Uint64Key(seed uint64) uint64 {
	seed ^= uint64(bits.ReverseBytes32(uint32(seed))) << 32
	return xxh3Secret8to24 - seed
}

// rrmxmx8 is XXH3's rrmxmx finalizer for an input of length 8.
func rrmxmx8(h uint64) uint64 {
	h ^= bits.RotateLeft64(h, 49) ^ bits.RotateLeft64(h, 24)
	h *= xxh3RRMXMXMul
	h ^= (h >> 35) + 8
	h *= xxh3RRMXMXMul
	return h ^ (h >> 28)
}

// Reduce maps a 64-bit hash onto [0, n) by the high word of h*n
// (Lemire's multiply-high range reduction): no division, uniform for a
// uniform h, and correct for any n up to 2^64-1.
func Reduce(h, n uint64) uint64 {
	hi, _ := bits.Mul64(h, n)
	return hi
}
