package blocked

import (
	"runtime"
	"sync/atomic"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/hashing"
)

// AddHashConcurrent adds a key given its hash and may run on any number of
// goroutines at once with other *Concurrent calls: it sets each word's bit
// with an atomic OR, so no lock is taken and no bit is lost. Plain
// methods (Add, AddHashes, Test, Union, ...) must not overlap with it;
// readers that run beside concurrent writers use TestHashConcurrent.
func (f *Filter) AddHashConcurrent(h uint64) { f.TestAndAddHashConcurrent(h) }

// lineOf returns the 8 words of the line that holds h's bits.
func (f *Filter) lineOf(h uint64) []uint64 {
	base := asm.BlockedLine(h, f.p.Lines) * 8
	return f.p.Words[base : base+8 : base+8]
}

// AddConcurrent is Add for concurrent writers (see AddHashConcurrent).
func (f *Filter) AddConcurrent(key []byte) { f.AddHashConcurrent(f.hash(key)) }

// AddHashesConcurrent adds every hash with AddHashConcurrent.
func (f *Filter) AddHashesConcurrent(hs []uint64) {
	for _, h := range hs {
		f.AddHashConcurrent(h)
	}
}

// AddUint64sConcurrent adds the 8 little-endian bytes of every key with
// AddHashConcurrent.
func (f *Filter) AddUint64sConcurrent(ks []uint64) {
	for _, k := range ks {
		f.AddHashConcurrent(hashing.HashUint64Keyed(k, f.p.Key))
	}
}

// TestHashConcurrent is TestHash with atomic loads, safe beside
// concurrent AddHashConcurrent calls. A key whose AddHashConcurrent has
// returned tests true.
func (f *Filter) TestHashConcurrent(h uint64) bool {
	if f.p.Lines == 0 {
		return false
	}
	line, m := f.lineOf(h), asm.BlockedMask(h, f.p.K)
	var miss uint64
	for w := range m {
		if m[w] != 0 {
			miss |= m[w] &^ atomic.LoadUint64(&line[w])
		}
	}
	runtime.KeepAlive(f.storage)
	return miss == 0
}

// TestConcurrent is Test for readers beside concurrent writers.
func (f *Filter) TestConcurrent(key []byte) bool { return f.TestHashConcurrent(f.hash(key)) }

// TestAndAddHashConcurrent adds the key with hash h and reports whether
// it tested present before, with the guarantee of the family contract's
// concurrent dedup: it may run beside every other *Concurrent call; a key
// added by any goroutine stays present; of calls racing for one new key,
// at least one returns false. Each word's bits are set with one atomic OR
// that returns the word before it, and the key tested present iff every
// bit was set already; the first OR to set one of a new key's unset bits
// sees it unset, so its call answers false.
func (f *Filter) TestAndAddHashConcurrent(h uint64) bool {
	if f.p.Lines == 0 {
		zeroFilter()
	}
	line, m := f.lineOf(h), asm.BlockedMask(h, f.p.K)
	var miss uint64
	for w := range m {
		if m[w] != 0 {
			miss |= m[w] &^ atomic.OrUint64(&line[w], m[w])
		}
	}
	runtime.KeepAlive(f.storage)
	return miss == 0
}

// TestAndAddConcurrent is TestAndAdd for concurrent writers (see
// TestAndAddHashConcurrent).
func (f *Filter) TestAndAddConcurrent(key []byte) bool {
	return f.TestAndAddHashConcurrent(f.hash(key))
}

// TestAndAddUint64Concurrent is TestAndAddConcurrent of the 8
// little-endian bytes of k.
func (f *Filter) TestAndAddUint64Concurrent(k uint64) bool {
	return f.TestAndAddHashConcurrent(hashing.HashUint64Keyed(k, f.p.Key))
}

// TestAndAddStringConcurrent is TestAndAddConcurrent of the bytes of s,
// without copying them.
func (f *Filter) TestAndAddStringConcurrent(s string) bool {
	return f.TestAndAddHashConcurrent(engine.HashStringSeed(s, f.p.Seed))
}
