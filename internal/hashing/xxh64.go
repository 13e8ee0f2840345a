package hashing

import (
	"encoding/binary"
	"math/bits"
	"unsafe"

	"github.com/filterengine/filterengine/internal/hashconst"
)

// XXH64 primes (internal/hashconst).
const (
	xxh64P1 = hashconst.XXH64P1
	xxh64P2 = hashconst.XXH64P2
	xxh64P3 = hashconst.XXH64P3
	xxh64P4 = hashconst.XXH64P4
	xxh64P5 = hashconst.XXH64P5
)

// XXH64 returns the 64-bit xxHash (XXH64, not XXH3) of b with the given
// seed. Parquet's split-block Bloom filter hashes every value with XXH64
// and seed 0 (parquet-format BloomFilter.md, "Technical Approach").
func XXH64(b []byte, seed uint64) uint64 {
	n := len(b)
	var h uint64
	if n >= 32 {
		v1 := seed + xxh64P1 + xxh64P2
		v2 := seed + xxh64P2
		v3 := seed
		v4 := seed - xxh64P1
		for len(b) >= 32 {
			v1 = xxh64Round(v1, binary.LittleEndian.Uint64(b[0:8]))
			v2 = xxh64Round(v2, binary.LittleEndian.Uint64(b[8:16]))
			v3 = xxh64Round(v3, binary.LittleEndian.Uint64(b[16:24]))
			v4 = xxh64Round(v4, binary.LittleEndian.Uint64(b[24:32]))
			b = b[32:]
		}
		h = bits.RotateLeft64(v1, 1) + bits.RotateLeft64(v2, 7) + bits.RotateLeft64(v3, 12) + bits.RotateLeft64(v4, 18)
		h = xxh64Merge(h, v1)
		h = xxh64Merge(h, v2)
		h = xxh64Merge(h, v3)
		h = xxh64Merge(h, v4)
	} else {
		h = seed + xxh64P5
	}
	h += uint64(n)
	for ; len(b) >= 8; b = b[8:] {
		h ^= xxh64Round(0, binary.LittleEndian.Uint64(b))
		h = bits.RotateLeft64(h, 27)*xxh64P1 + xxh64P4
	}
	if len(b) >= 4 {
		h ^= uint64(binary.LittleEndian.Uint32(b)) * xxh64P1
		h = bits.RotateLeft64(h, 23)*xxh64P2 + xxh64P3
		b = b[4:]
	}
	for _, c := range b {
		h ^= uint64(c) * xxh64P5
		h = bits.RotateLeft64(h, 11) * xxh64P1
	}
	return xxh64Avalanche(h)
}

// XXH64String returns XXH64 of the bytes of s with seed 0, without
// copying them.
func XXH64String(s string) uint64 { return XXH64(unsafe.Slice(unsafe.StringData(s), len(s)), 0) }

// XXH64Uint64 returns XXH64 (seed 0) of the 8 little-endian bytes of k:
// the hash Parquet gives an INT64 (or UINT64, DOUBLE bits) value, whose
// plain encoding is those bytes. It is the scalar specification of the
// batch kernel in asm.
func XXH64Uint64(k uint64) uint64 {
	h := xxh64P5 + 8
	h ^= xxh64Round(0, k)
	h = bits.RotateLeft64(h, 27)*xxh64P1 + xxh64P4
	return xxh64Avalanche(h)
}

// XXH64Uint64Start is XXH64Uint64's constant first state, P5 + 8, which
// batch kernels hoist.
const XXH64Uint64Start = xxh64P5 + 8

func xxh64Round(acc, lane uint64) uint64 {
	acc += lane * xxh64P2
	acc = bits.RotateLeft64(acc, 31)
	return acc * xxh64P1
}

func xxh64Merge(h, v uint64) uint64 {
	h ^= xxh64Round(0, v)
	return h*xxh64P1 + xxh64P4
}

func xxh64Avalanche(h uint64) uint64 {
	h ^= h >> 33
	h *= xxh64P2
	h ^= h >> 29
	h *= xxh64P3
	h ^= h >> 32
	return h
}
