package leveldb

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
	hashSeed = 0xbc9f1d34
	hashMul  = 0xc6a4a793
)

// Hash is LevelDB's BloomHash of key, the hash of its filter: the bytes
// after the last whole 32-bit word count as unsigned (as goleveldb and C++
// LevelDB 1.18+).
func Hash(key []byte) uint32 { return hash(key, 0) }

// RocksDBHash is RocksDB's BloomHash of key, the hash of its legacy filter
// and of Pebble's bloom package: Hash except that each tail byte is
// sign-extended before it is shifted and added.
func RocksDBHash(key []byte) uint32 { return hash(key, ^uint32(0)) }

// hash is both hashes: signed is 0 for LevelDB's unsigned tail bytes and
// all ones for RocksDB's sign-extended ones. A byte b sign-extends to
// b - 256 when b >= 0x80, so the signed tail is the unsigned one minus
// those 256s, each at its byte's shift. Whole words go eight bytes per step.
func hash(key []byte, signed uint32) uint32 {
	h := hashSeed ^ uint32(len(key))*hashMul
	// Loads through a pointer and an index: re-slicing key would mask the
	// pointer per word, indexing would check bounds the loop already has.
	p, i := unsafe.Pointer(unsafe.SliceData(key)), 0
	for ; i+8 <= len(key); i += 8 {
		w := binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(p, i))[:])
		h = (h + uint32(w)) * hashMul
		h ^= h >> 16
		h = (h + uint32(w>>32)) * hashMul
		h ^= h >> 16
	}
	if i+4 <= len(key) {
		h = (h + binary.LittleEndian.Uint32((*[4]byte)(unsafe.Add(p, i))[:])) * hashMul
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
		h = (h + u - (u&0x808080)<<1&signed) * hashMul
		h ^= h >> 24
	}
	return h
}

// Probes is the probe count k both formats derive from an integer
// bits-per-key budget, as LevelDB's util/bloom.cc, goleveldb and Pebble
// compute it: floor(0.69 * bitsPerKey) clamped to [1, 30]. The filter
// stores k, so readers take it from the filter, not from this rule.
func Probes(bitsPerKey int) int {
	return min(max(int(float64(bitsPerKey)*0.69), 1), 30)
}

// divMagic returns the constant fastMod divides by d with: the smallest M
// with M*d >= 2^64, that is floor((2^64-1)/d)+1 (0 for d = 1, which
// fastMod handles). d must be positive.
func divMagic(d uint32) uint64 { return ^uint64(0)/uint64(d) + 1 }

// fastMod returns a % d for any 32-bit a and positive 32-bit d, given
// magic = divMagic(d), with two multiplications and no division (Lemire,
// Kaser & Kurz, "Faster remainder by direct computation", 2019).
func fastMod(a uint32, magic uint64, d uint32) uint32 {
	hi, _ := bits.Mul64(magic*uint64(a), uint64(d))
	return uint32(hi)
}
