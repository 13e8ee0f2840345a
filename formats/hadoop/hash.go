package hadoop

import (
	"encoding/binary"
	"math/bits"
)

// HashType names the 32-bit hash a Hadoop filter uses, with the numbers
// org.apache.hadoop.util.hash.Hash gives them (the byte written in the
// filter header).
type HashType int8

const (
	// Jenkins is org.apache.hadoop.util.hash.JenkinsHash (hash type 0).
	Jenkins HashType = 0
	// Murmur is org.apache.hadoop.util.hash.MurmurHash (hash type 1).
	Murmur HashType = 1
)

// String returns Hadoop's name for the hash ("jenkins", "murmur").
func (h HashType) String() string {
	switch h {
	case Jenkins:
		return "jenkins"
	case Murmur:
		return "murmur"
	}
	return "unknown"
}

func (h HashType) valid() bool { return h == Jenkins || h == Murmur }

// hash32 returns the hash of key under h seeded with seed; h must be valid.
func (h HashType) hash32(key []byte, seed int32) int32 {
	if h == Murmur {
		return MurmurHash(key, seed)
	}
	return JenkinsHash(key, seed)
}

// JenkinsHash is org.apache.hadoop.util.hash.JenkinsHash.hash(key,
// key.length, initval): Bob Jenkins' lookup3 hashlittle over the bytes read
// one at a time, little-endian, returned as a signed 32-bit value. An empty
// key hashes to the initial state, 0xdeadbeef + initval.
func JenkinsHash(key []byte, initval int32) int32 {
	a := uint32(0xdeadbeef) + uint32(len(key)) + uint32(initval)
	b, c := a, a
	for len(key) > 12 {
		a += binary.LittleEndian.Uint32(key[0:4])
		b += binary.LittleEndian.Uint32(key[4:8])
		c += binary.LittleEndian.Uint32(key[8:12])
		a, b, c = jenkinsMix(a, b, c)
		key = key[12:]
	}
	if len(key) == 0 {
		return int32(c)
	}
	var tail [12]byte
	copy(tail[:], key)
	a += binary.LittleEndian.Uint32(tail[0:4])
	b += binary.LittleEndian.Uint32(tail[4:8])
	c += binary.LittleEndian.Uint32(tail[8:12])
	return int32(jenkinsFinal(a, b, c))
}

func jenkinsMix(a, b, c uint32) (uint32, uint32, uint32) {
	a -= c
	a ^= bits.RotateLeft32(c, 4)
	c += b
	b -= a
	b ^= bits.RotateLeft32(a, 6)
	a += c
	c -= b
	c ^= bits.RotateLeft32(b, 8)
	b += a
	a -= c
	a ^= bits.RotateLeft32(c, 16)
	c += b
	b -= a
	b ^= bits.RotateLeft32(a, 19)
	a += c
	c -= b
	c ^= bits.RotateLeft32(b, 4)
	b += a
	return a, b, c
}

func jenkinsFinal(a, b, c uint32) uint32 {
	c ^= b
	c -= bits.RotateLeft32(b, 14)
	a ^= c
	a -= bits.RotateLeft32(c, 11)
	b ^= a
	b -= bits.RotateLeft32(a, 25)
	c ^= b
	c -= bits.RotateLeft32(b, 16)
	a ^= c
	a -= bits.RotateLeft32(c, 4)
	b ^= a
	b -= bits.RotateLeft32(a, 14)
	c ^= b
	c -= bits.RotateLeft32(b, 24)
	return c
}

const murmurM = 0x5bd1e995

// MurmurHash is org.apache.hadoop.util.hash.MurmurHash.hash(key, 0,
// key.length, seed), which is not reference MurmurHash2: its 4-byte body
// and finalizer agree, but the 1 to 3 trailing bytes are taken in reverse
// order (the last byte lands in bits 0-7) and each is a sign-extended Java
// byte, so a tail byte of 0x80 or more sets every bit above its place.
// Hadoop's MurmurHash of 0x01 with seed 0 is 0.
func MurmurHash(key []byte, seed int32) int32 {
	h := uint32(seed) ^ uint32(len(key))
	n := len(key) &^ 3
	for i := 0; i < n; i += 4 {
		k := binary.LittleEndian.Uint32(key[i : i+4])
		k *= murmurM
		k ^= k >> 24
		k *= murmurM
		h *= murmurM
		h ^= k
	}
	if t := key[n:]; len(t) > 0 {
		for i, b := range t {
			shift := 8 * uint(len(t)-1-i)
			h ^= uint32(int32(int8(b)) << shift)
		}
		h *= murmurM
	}
	h ^= h >> 13
	h *= murmurM
	h ^= h >> 15
	return int32(h)
}
