package asm

import (
	"runtime"

	"github.com/filterengine/filterengine/engine"
)

// The counting single-key test as a kernel: counting.Filter's Test,
// TestUint64, TestString and TestHash are each one call to
// CountingTestKey, CountingTestUint64 or CountingTestHash, inlined into
// the caller. At the avx512 level, a filter of 4-bit counters with
// k <= 9 and an 8-byte key (or a uint64, or a hash) runs one kernel
// (gen/counting/key.go): the hash, the line, then the first 8 probes
// of the round in the 8 lanes of one ZMM (the 9th in a second pass),
// about 50 instructions for k <= 8 against about 125 for the Go path
// with its call, so a loop of single-key calls keeps more keys' line
// misses in flight. Other keys, filters, levels and builds run the
// Generic twins below, which are the specification.

// CountingProbe is what the single-key kernels read of a counting
// filter, by offset (the generator takes them from unsafe.Offsetof).
// Build it with NewCountingProbe; the zero probe is the zero filter's.
type CountingProbe struct {
	// Words holds the counters, Lines lines of CountingLineWords words.
	Words []uint64
	Lines uint64
	// Seed is the hash seed; Key is engine.Uint64Key(Seed).
	Seed, Key uint64
	K         uint32
	Wide      bool // 8-bit counters, else 4-bit
	// Round4 is K when the kernels take the filter (4-bit counters,
	// one multiplier round: K <= 9, and lines), else 0.
	Round4 uint32
	// Other, when set, is the TestHash of a filter of another layout
	// (counting's version-1 files), which the Generic twins call
	// instead of reading Words; its probe has no Lines.
	Other func(h uint64) bool
}

// countingZero is the panic of a test of the zero counting.Filter, the
// message internal/batch.Zero gives for that type (the counting
// package's tests hold the two equal).
const countingZero = "counting.Filter: zero value, use counting.New"

// NewCountingProbe returns the probe of the counting filter words (lines
// lines of CountingLineWords words, 8-bit counters if wide) with k
// probes per key and the given seed; lines 0 gives the zero filter's
// probe. It panics if words holds fewer lines or k is outside [1,
// NarrowMaxK].
func NewCountingProbe(words []uint64, lines uint64, k uint32, wide bool, seed uint64) CountingProbe {
	p := CountingProbe{Seed: seed, Key: engine.Uint64Key(seed)}
	if lines == 0 {
		return p
	}
	if uint64(len(words))/CountingLineWords < lines || k == 0 || k > NarrowMaxK {
		panic("asm: NewCountingProbe bad filter geometry")
	}
	p.Words, p.Lines, p.K, p.Wide = words, lines, k, wide
	if !wide && k <= NarrowPer(7) {
		p.Round4 = k
	}
	return p
}

// CountingTestKey reports whether all counters of key are nonzero in p's
// filter.
func CountingTestKey(p *CountingProbe, key []byte) bool { return countingTestKey(probeAddr(p), key) }

// CountingTestUint64 is CountingTestKey of the 8 little-endian bytes of
// key.
func CountingTestUint64(p *CountingProbe, key uint64) bool {
	return countingTestUint64(probeAddr(p), key)
}

// CountingTestHash is CountingTestKey of a key by its hash.
func CountingTestHash(p *CountingProbe, h uint64) bool { return countingTestHash(probeAddr(p), h) }

// Hash returns engine.HashSeed(key, p.Seed).
func (p *CountingProbe) Hash(key []byte) uint64 { return engine.HashKeyed(key, p.Seed, p.Key) }

// TestHash reports whether all counters of hash h are nonzero
// (CountingTest on its line, or Other). It panics on the zero probe with
// the zero Filter's message.
func (p *CountingProbe) TestHash(h uint64) bool {
	if p.Lines == 0 {
		if p.Other != nil {
			return p.Other(h)
		}
		panic(countingZero)
	}
	line := CountingLine(p.Words, h, p.Lines)
	var ok bool
	if p.Round4 != 0 { // one round: CountingTest's loop without the loop
		ok = CountingRound4(line, h*BlockedMul, p.Round4)>>63 == 0
	} else {
		ok = CountingTest(line, h, p.K, p.Wide)
	}
	runtime.KeepAlive(p) // and with it the filter holding the storage
	return ok
}

func countingTestKeyGeneric(p *uint64, key []byte) bool {
	q := probeAt[CountingProbe](p)
	return q.TestHash(q.Hash(key))
}

func countingTestUint64Generic(p *uint64, key uint64) bool {
	q := probeAt[CountingProbe](p)
	return q.TestHash(engine.HashUint64Keyed(key, q.Key))
}

func countingTestHashGeneric(p *uint64, h uint64) bool {
	return probeAt[CountingProbe](p).TestHash(h)
}
