package classic

import "math/bits"

// phi is 2^64 divided by the golden ratio, odd: the multiplier of the
// second hash and the step of its quadratic term.
const phi = 0x9e3779b97f4a7c15

// probe generates the bit positions of one key: construct it from the
// key's hash and call next k times. Position i is the multiply-high
// reduction of a + i·b + φ·i(i-1)/2 (mod 2^64): double hashing with a
// quadratic term, which breaks up plain double hashing's bad cases (keys
// whose b has few high bits probe a short run of nearby positions).
// Retouched and the tests use it to reproduce this family's positions
// exactly; the filter's own loops spell the same steps out in registers.
type probe struct{ a, b, m uint64 }

// newProbe starts the probe sequence of hash h over m bits.
func newProbe(h, m uint64) probe { return probe{a: h, b: second(h), m: m} }

// next returns the next position in [0, m).
func (p *probe) next() uint64 {
	pos := reduce(p.a, p.m)
	p.a += p.b
	p.b += phi
	return pos
}

// reduce maps a probe's 64-bit value onto [0, m) by multiply-high: of its
// top 32 bits when m <= 2^32 (one IMUL on free registers; the Go compiler
// must pin the 128-bit MULQ to AX:DX, which spills the batch loops), of
// all 64 bits above that. Both are part of the format.
func reduce(a, m uint64) uint64 {
	if m <= 1<<32 {
		return (a >> 32) * m >> 32
	}
	hi, _ := bits.Mul64(a, m)
	return hi
}

// second derives the double-hashing step from the key's hash.
func second(h uint64) uint64 { return bits.RotateLeft64(h, 32)*phi | 1 }
