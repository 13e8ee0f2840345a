package asm

import (
	"runtime"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/hashing"
)

// The counting single-key test as a kernel: counting.Filter's Test,
// TestUint64, TestString and TestHash are each one call to
// CountingTestKey, CountingTestUint64 or CountingTestHash, inlined into
// the caller. At the avx512 level, a filter of 4-bit counters with
// k <= 9 and an 8-byte key (or a uint64, or a hash) runs one kernel
// (gen/counting/key.go): the hash, the line, then the first 8 probes
// of the round in the 8 lanes of one ZMM (the 9th in a second pass),
// a shorter instruction stream than the Go path with its call, so a loop
// of single-key calls keeps more keys' line misses in flight. Other keys, filters, levels and builds run the
// Generic twins below, which are the specification.

// CountingProbe is what the single-key kernels read of a counting
// filter, by offset (the generator takes them from unsafe.Offsetof).
// Build it with NewCountingProbe; the zero probe is the zero filter's.
type CountingProbe struct {
	// Words holds the counters, Lines lines of CountingLineWords words.
	Words []uint64
	Lines uint64
	// Seed is the hash seed; Key is hashing.Uint64Key(Seed).
	Seed, Key uint64
	K         uint32
	Wide      bool // 8-bit counters, else 4-bit
	// Round4 is K when the kernels take the filter (4-bit counters,
	// one multiplier round: K <= 9, and lines), else 0.
	Round4 uint32
}

// countingZero is the panic of a test of the zero counting.Filter, the
// message internal/batch.Zero gives for that type (the counting
// package's tests hold the two equal).
const countingZero = "counting.Filter: zero value, use counting.New"

// NewCountingProbe returns the probe of the counting filter words (lines
// lines of CountingLineWords words, 8-bit counters if wide) with k
// probes per key and the given seed; lines 0 gives the zero filter's
// probe. It panics if words holds fewer lines or k is outside [1,
// engine.MaxK].
func NewCountingProbe(words []uint64, lines uint64, k uint32, wide bool, seed uint64) CountingProbe {
	p := CountingProbe{Seed: seed, Key: hashing.Uint64Key(seed)}
	if lines == 0 {
		return p
	}
	if uint64(len(words))/CountingLineWords < lines || k == 0 || k > engine.MaxK {
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
func (p *CountingProbe) Hash(key []byte) uint64 { return hashing.HashKeyed(key, p.Seed, p.Key) }

// TestHash reports whether all counters of hash h are nonzero
// (CountingTest on its line). It panics on the zero probe with
// the zero Filter's message.
func (p *CountingProbe) TestHash(h uint64) bool {
	if p.Lines == 0 {
		panic(countingZero)
	}
	line := CountingLine(p.Words, h, p.Lines)
	var ok bool
	if p.Round4 != 0 { // one round: CountingTest's loop without the loop
		ok = countingRound4(line, h*BlockedMul, p.Round4)>>63 == 0
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
	return q.TestHash(hashing.HashUint64Keyed(key, q.Key))
}

func countingTestHashGeneric(p *uint64, h uint64) bool {
	return probeAt[CountingProbe](p).TestHash(h)
}

// The counting single-key updates as kernels: counting.Filter's plain
// Add, TestAndAdd and Remove forms are each one inlined call to one of
// them. At the avx512 level, for the filters and keys the test kernels
// take, they hash the key and find its line as those do, then build the
// key's increments as one line-sized vector D, each nibble the number of
// the key's probes on that counter (gen/counting/update.go), and update
// the line with nibble arithmetic: Add stores min(c+d, 15) (a counter at
// 15 stays there, two probes on one counter raise it twice), Remove
// tests that no counter with d > 0 is zero and then stores c-d, floored
// at zero, except where c is 15. The Generic twins below are the
// specification: CountingUpdate's walk, probe by probe.

// CountingAddKey increments the counters of key in p's filter by plain
// stores: the writer has the filter to itself.
func CountingAddKey(p *CountingProbe, key []byte) { countingAddKey(probeAddr(p), key) }

// CountingAddUint64 is CountingAddKey of the 8 little-endian bytes of
// key.
func CountingAddUint64(p *CountingProbe, key uint64) { countingAddUint64(probeAddr(p), key) }

// CountingAddHash is CountingAddKey of a key by its hash.
func CountingAddHash(p *CountingProbe, h uint64) { countingAddHash(probeAddr(p), h) }

// CountingTestAndAddKey is CountingAddKey reporting whether all counters
// of key were nonzero before it.
func CountingTestAndAddKey(p *CountingProbe, key []byte) bool {
	return countingTestAndAddKey(probeAddr(p), key)
}

// CountingTestAndAddUint64 is CountingTestAndAddKey of the 8
// little-endian bytes of key.
func CountingTestAndAddUint64(p *CountingProbe, key uint64) bool {
	return countingTestAndAddUint64(probeAddr(p), key)
}

// CountingTestAndAddHash is CountingTestAndAddKey of a key by its hash.
func CountingTestAndAddHash(p *CountingProbe, h uint64) bool {
	return countingTestAndAddHash(probeAddr(p), h)
}

// CountingRemoveKey decrements the counters of key by plain stores and
// reports true, or reports false and changes nothing when one of them is
// zero (RemoveHash).
func CountingRemoveKey(p *CountingProbe, key []byte) bool {
	return countingRemoveKey(probeAddr(p), key)
}

// CountingRemoveUint64 is CountingRemoveKey of the 8 little-endian bytes
// of key.
func CountingRemoveUint64(p *CountingProbe, key uint64) bool {
	return countingRemoveUint64(probeAddr(p), key)
}

// CountingRemoveHash is CountingRemoveKey of a key by its hash.
func CountingRemoveHash(p *CountingProbe, h uint64) bool {
	return countingRemoveHash(probeAddr(p), h)
}

// TestAndAddHash increments the k counters of hash h by plain stores
// (CountingUpdate's CountingAdd) and reports whether all
// were nonzero before. It panics on the zero probe with the zero
// Filter's message.
func (p *CountingProbe) TestAndAddHash(h uint64) bool {
	if p.Lines == 0 {
		panic(countingZero)
	}
	line := CountingLine(p.Words, h, p.Lines)
	var miss uint64
	if p.Round4 != 0 { // one round: CountingUpdate's walk with constant shifts
		miss = countingBump4(line, h*BlockedMul, p.Round4)
	} else {
		miss = CountingUpdate(line, h, p.K, p.Wide, CountingAdd)
	}
	runtime.KeepAlive(p)
	return miss>>63 == 0
}

// RemoveHash decrements the k counters of hash h by plain stores
// (CountingUpdate's CountingRemove) and reports true, or
// reports false and changes nothing when one of them is zero. It panics
// on the zero probe with the zero Filter's message.
func (p *CountingProbe) RemoveHash(h uint64) bool {
	if p.Lines == 0 {
		panic(countingZero)
	}
	line := CountingLine(p.Words, h, p.Lines)
	ok := false
	if p.Round4 != 0 {
		if ok = countingRound4(line, h*BlockedMul, p.Round4)>>63 == 0; ok {
			countingDrop4(line, h*BlockedMul, p.Round4)
		}
	} else if ok = CountingTest(line, h, p.K, p.Wide); ok {
		CountingUpdate(line, h, p.K, p.Wide, CountingRemove)
	}
	runtime.KeepAlive(p)
	return ok
}

func countingAddKeyGeneric(p *uint64, key []byte) {
	q := probeAt[CountingProbe](p)
	q.TestAndAddHash(q.Hash(key))
}

func countingAddUint64Generic(p *uint64, key uint64) {
	q := probeAt[CountingProbe](p)
	q.TestAndAddHash(hashing.HashUint64Keyed(key, q.Key))
}

func countingAddHashGeneric(p *uint64, h uint64) { probeAt[CountingProbe](p).TestAndAddHash(h) }

func countingTestAndAddKeyGeneric(p *uint64, key []byte) bool {
	q := probeAt[CountingProbe](p)
	return q.TestAndAddHash(q.Hash(key))
}

func countingTestAndAddUint64Generic(p *uint64, key uint64) bool {
	q := probeAt[CountingProbe](p)
	return q.TestAndAddHash(hashing.HashUint64Keyed(key, q.Key))
}

func countingTestAndAddHashGeneric(p *uint64, h uint64) bool {
	return probeAt[CountingProbe](p).TestAndAddHash(h)
}

func countingRemoveKeyGeneric(p *uint64, key []byte) bool {
	q := probeAt[CountingProbe](p)
	return q.RemoveHash(q.Hash(key))
}

func countingRemoveUint64Generic(p *uint64, key uint64) bool {
	q := probeAt[CountingProbe](p)
	return q.RemoveHash(hashing.HashUint64Keyed(key, q.Key))
}

func countingRemoveHashGeneric(p *uint64, h uint64) bool {
	return probeAt[CountingProbe](p).RemoveHash(h)
}
