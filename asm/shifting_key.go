package asm

import (
	"github.com/filterengine/filterengine/internal/hashing"
)

// The ShBF_M single-key test as a kernel: shifting.Filter's Test and
// TestUint64 are each one call to ShiftingTestKey / ShiftingTestUint64,
// inlined into the caller. On amd64 from avx2 up (BMI2's MULX), an 8-byte
// key (or a uint64) of a filter without a second array runs one scalar
// kernel (gen/shifting/key.go): the hash, then every pair's unaligned
// window, with no call between; other keys, filters and builds run the
// Generic twins below, which are the specification.

// ShiftingProbe is what the single-key kernels read of a ShBF_M filter,
// by offset (the generator takes them from unsafe.Offsetof).
type ShiftingProbe struct {
	// Words is the filter's storage: the first array, padded for the
	// unaligned windows, from word 0, the second from word Base2.
	Words []uint64
	// M is the first array's positions; M2 the second array's bits, 0
	// without one.
	M, M2, Base2 uint64
	// Seed is the hash seed; Key is hashing.Uint64Key(Seed).
	Seed, Key uint64
	K         uint32
}

// shiftingZero is the panic of a read of a zero shifting.Filter, the
// message internal/batch.Zero gives for that type (the shifting package's
// tests hold the two equal).
const shiftingZero = "shifting.Filter: zero value, use shifting.New"

// ShiftingTestKey reports whether key may be in p's filter.
func ShiftingTestKey(p *ShiftingProbe, key []byte) bool { return shiftingTestKey(probeAddr(p), key) }

// ShiftingTestUint64 is ShiftingTestKey of the 8 little-endian bytes of
// key.
func ShiftingTestUint64(p *ShiftingProbe, key uint64) bool {
	return shiftingTestUint64(probeAddr(p), key)
}

// Hash returns engine.HashSeed(key, p.Seed).
func (p *ShiftingProbe) Hash(key []byte) uint64 { return hashing.HashKeyed(key, p.Seed, p.Key) }

// ShiftingRawAt returns the probe value a_j of hash h in closed form,
// h + j·b_0 + φ·j(j-1)/2 with b_0 = h rotated by 32: the values
// ShiftingTestHash steps through.
func ShiftingRawAt(h, j uint64) uint64 {
	return h + j*(h<<32|h>>32) + ShiftingPhi*(j*(j-1)/2)
}

// TestHash reports whether hash h may be in p's filter: its pairs in the
// first array, and for a key that passes them, its bit in the second.
// It panics on a zero filter (no words) with the zero Filter's message.
func (p *ShiftingProbe) TestHash(h uint64) bool {
	if p.Words == nil {
		panic(shiftingZero)
	}
	return ShiftingTestHash(p.Words, p.M, p.K/2, h) && (p.M2 == 0 || p.SecondHas(h))
}

// SecondHas reports whether the second array has the bit of hash h.
func (p *ShiftingProbe) SecondHas(h uint64) bool {
	q := hashing.Reduce(ShiftingRawAt(h, uint64(p.K/2)+1), p.M2)
	return p.Words[p.Base2+q>>6]&(1<<(q&63)) != 0
}

func shiftingTestKeyGeneric(p *uint64, key []byte) bool {
	q := probeAt[ShiftingProbe](p)
	return q.TestHash(q.Hash(key))
}

func shiftingTestUint64Generic(p *uint64, key uint64) bool {
	q := probeAt[ShiftingProbe](p)
	return q.TestHash(hashing.HashUint64Keyed(key, q.Key))
}
