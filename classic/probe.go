package classic

import (
	"math/bits"

	"github.com/filterengine/filterengine/engine"
)

// Probe generates the bit positions of one key: construct it from the
// key's hash and call Next k times. Position i is the multiply-high
// reduction of a + i·b + φ·i(i-1)/2 (mod 2^64): double hashing with a
// quadratic term, which breaks up plain double hashing's bad cases (keys
// whose b has few high bits probe a short run of nearby positions). Counting-filter twins and tests use it
// to reproduce this family's positions exactly.
type Probe struct{ a, b, m uint64 }

// NewProbe starts the probe sequence of hash h over m bits.
func NewProbe(h, m uint64) Probe {
	return Probe{a: h, b: bits.RotateLeft64(h, 32)*0x9e3779b97f4a7c15 | 1, m: m}
}

// Next returns the next position in [0, m).
func (p *Probe) Next() uint64 {
	pos := engine.Reduce(p.a, p.m)
	p.a += p.b
	p.b += 0x9e3779b97f4a7c15
	return pos
}
