package hashing

import (
	"encoding/binary"
	"math/bits"

	"github.com/filterengine/filterengine/internal/hashconst"
	"github.com/zeebo/xxh3"
)

// HashKeyed is engine.HashSeed(key, seed) with k = Uint64Key(seed)
// precomputed, the form a filter's single-key methods use: an 8-byte key
// is hashed inline, without a call.
func HashKeyed(key []byte, seed, k uint64) uint64 {
	if len(key) == 8 {
		return HashUint64Keyed(binary.LittleEndian.Uint64(key), k)
	}
	return xxh3.HashSeed(key, seed)
}

// HashUint64Keyed is engine.HashUint64Seed with the seed's constant
// precomputed by Uint64Key, the form batch loops use.
func HashUint64Keyed(k, key uint64) uint64 { return rrmxmx8(bits.RotateLeft64(k, 32) ^ key) }

// Uint64Key returns the per-seed constant XOR-ed into a rotated 8-byte key
// by XXH3's 4..8-byte path; batch kernels hoist it out of their loop.
func Uint64Key(seed uint64) uint64 {
	seed ^= uint64(bits.ReverseBytes32(uint32(seed))) << 32
	return hashconst.XXH3Secret8to24 - seed
}

// rrmxmx8 is XXH3's rrmxmx finalizer for an input of length 8.
func rrmxmx8(h uint64) uint64 {
	h ^= bits.RotateLeft64(h, 49) ^ bits.RotateLeft64(h, 24)
	h *= hashconst.XXH3RRMXMXMul
	h ^= (h >> 35) + 8
	h *= hashconst.XXH3RRMXMXMul
	return h ^ (h >> 28)
}

// Reduce maps a 64-bit hash onto [0, n) by the high word of h*n
// (Lemire's multiply-high range reduction): no division, uniform for a
// uniform h, and correct for any n up to 2^64-1.
func Reduce(h, n uint64) uint64 {
	hi, _ := bits.Mul64(h, n)
	return hi
}
