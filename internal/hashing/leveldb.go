package hashing

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// The Bloom hash of LevelDB's and RocksDB's built-in filters: a murmur-like
// 32-bit hash with seed 0xbc9f1d34 and multiplier 0xc6a4a793 over the key's
// little-endian 32-bit words, then its last 1..3 bytes. The two engines
// differ only in those tail bytes: LevelDB (util/hash.cc since 1.18, and
// goleveldb's util.Hash) adds them as unsigned bytes, RocksDB (util/hash.cc,
// and Pebble's bloom package) sign-extends them, so keys whose last
// len%4 bytes include one >= 0x80 hash differently.
const (
	levelDBSeed = 0xbc9f1d34
	levelDBMul  = 0xc6a4a793
)

// LevelDBMaxBitsPerKey caps the bits-per-key argument of the LevelDB and
// RocksDB legacy filter writers, as RocksDB's BloomFilterPolicy sanitizes
// it (filter_policy.cc). With k capped at 30 probes, 100 bits per key
// already give a model false-positive rate near 3e-18, and the cap bounds
// the allocation a bad argument can cause to 12.5 bytes per key.
const LevelDBMaxBitsPerKey = 100

// LevelDBHash is LevelDB's BloomHash of key: the bytes after the last whole
// 32-bit word count as unsigned (as goleveldb and C++ LevelDB 1.18+).
func LevelDBHash(key []byte) uint32 { return levelDBHash(key, 0) }

// RocksDBHash is RocksDB's BloomHash of key, the hash of its legacy Bloom
// filters and of Pebble's bloom package: LevelDBHash except that each tail
// byte is sign-extended before it is shifted and added.
func RocksDBHash(key []byte) uint32 { return levelDBHash(key, ^uint32(0)) }

// levelDBHash is both hashes: signed is 0 for LevelDB's unsigned tail bytes
// and all ones for RocksDB's sign-extended ones. A byte b sign-extends to
// b - 256 when b >= 0x80, so the signed tail is the unsigned one minus
// those 256s, each at its byte's shift. Whole words go eight bytes per step.
// The readers classic.LevelDBMayMatch and blocked.RocksDBLegacyMayMatch
// write this hash out (Go does not inline it); their tests keep them equal.
func levelDBHash(key []byte, signed uint32) uint32 {
	h := levelDBSeed ^ uint32(len(key))*levelDBMul
	// Loads through a pointer and an index: re-slicing key would mask the
	// pointer per word, indexing would check bounds the loop already has.
	p, i := unsafe.Pointer(unsafe.SliceData(key)), 0
	for ; i+8 <= len(key); i += 8 {
		w := binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(p, i))[:])
		h = (h + uint32(w)) * levelDBMul
		h ^= h >> 16
		h = (h + uint32(w>>32)) * levelDBMul
		h ^= h >> 16
	}
	if i+4 <= len(key) {
		h = (h + binary.LittleEndian.Uint32((*[4]byte)(unsafe.Add(p, i))[:])) * levelDBMul
		h ^= h >> 16
		i += 4
	}
	if i < len(key) {
		n, u := len(key)-i, uint32(*(*byte)(unsafe.Add(p, i)))
		if n > 1 {
			u |= uint32(*(*byte)(unsafe.Add(p, i+1))) << 8
		}
		if n > 2 {
			u |= uint32(*(*byte)(unsafe.Add(p, i+2))) << 16
		}
		// Sign-extended bytes: each byte >= 0x80 counts 256 less at its
		// shift, which is its top bit moved one place up.
		h = (h + u - (u&0x808080)<<1&signed) * levelDBMul
		h ^= h >> 24
	}
	return h
}

// DivMagic32 returns the constant FastMod32 divides by d with: the
// smallest M with M*d >= 2^64, that is floor((2^64-1)/d)+1 (0 for d = 1,
// which FastMod32 handles). d must be positive.
func DivMagic32(d uint32) uint64 { return ^uint64(0)/uint64(d) + 1 }

// FastMod32 returns a % d for any 32-bit a and positive 32-bit d, given
// magic = DivMagic32(d), with two multiplications and no division (Lemire,
// Kaser & Kurz, "Faster remainder by direct computation", 2019). Hash
// formats that define positions as h % m use it on their hot paths.
func FastMod32(a uint32, magic uint64, d uint32) uint32 {
	hi, _ := bits.Mul64(magic*uint64(a), uint64(d))
	return uint32(hi)
}

// LevelDBK is LevelDB's probe count for an integer bits-per-key budget:
// floor(0.69 * bitsPerKey) clamped to [1, 30] (LevelDB's util/bloom.cc).
func LevelDBK(bitsPerKey int) int {
	return min(max(int(float64(bitsPerKey)*0.69), 1), 30)
}
