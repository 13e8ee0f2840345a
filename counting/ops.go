package counting

import (
	"math/bits"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/internal/batch"
	"github.com/filterengine/filterengine/internal/hashing"
)

func load(p *uint64) uint64 { return atomic.LoadUint64(p) }

// hash is engine.HashSeed(key, f.seed) (hashing.HashKeyed).
func (f *Filter) hash(key []byte) uint64 { return hashing.HashKeyed(key, f.seed, f.key) }

func popcount(x uint64) int { return bits.OnesCount64(x) }

// op is what update does to each of a key's counters
// (asm.CountingUpdate, which walks them).
type op = asm.CountingOp

const (
	opAdd          = asm.CountingAdd          // one more, plain: the writer has the filter to itself
	opAddAtomic    = asm.CountingAddAtomic    // one more by CAS, for concurrent writers
	opRemove       = asm.CountingRemove       // one less, plain
	opRemoveAtomic = asm.CountingRemoveAtomic // one less by CAS
	opLeast        = asm.CountingLeast        // no change: the smallest counter (Count)
)

// update applies o to each of the k counters of hash h
// (asm.CountingUpdate) and returns, for opAdd and opAddAtomic, a word
// whose top bit is set when one of them was zero before its increment,
// and for opLeast the smallest of them.
func (f *Filter) update(h uint64, o op) uint64 {
	f.mustHaveLines()
	acc := asm.CountingUpdate(asm.CountingLine(f.words, h, f.lines), h, f.k, f.wide, o)
	runtime.KeepAlive(f)
	return acc
}

// mustHaveLines panics with the family's zero-value message on the zero
// Filter, which has no counters: one compare inline, the panic out of
// line.
func (f *Filter) mustHaveLines() {
	if f.lines == 0 {
		zeroFilter()
	}
}

//go:noinline
func zeroFilter() { batch.Zero("counting.Filter", "counting.New") }

// addAtomic increments h's counters by CAS and reports whether all were
// nonzero before, each judged at the moment of its own CAS.
func (f *Filter) addAtomic(h uint64) bool {
	return f.update(h, opAddAtomic)>>63 == 0
}

// Add inserts key. It is one call of the asm.CountingAddKey kernel,
// which hashes an 8-byte key and adds to a round of 4-bit counters with
// the line in one register (its Go twin for every other key and filter).
func (f *Filter) Add(key []byte) { asm.CountingAddKey(&f.probe, key) }

// AddUint64 inserts the 8 little-endian bytes of k.
func (f *Filter) AddUint64(k uint64) { asm.CountingAddUint64(&f.probe, k) }

// AddString inserts the bytes of s, without copying them (the kernel
// only reads them).
func (f *Filter) AddString(s string) { f.Add(unsafe.Slice(unsafe.StringData(s), len(s))) }

// AddHash inserts a key by its hash: one increment of each of its k
// counters (two probes on one counter increment it twice), a counter at
// its maximum staying there. It is one call of the asm.CountingAddHash
// kernel, as Add.
func (f *Filter) AddHash(h uint64) { asm.CountingAddHash(&f.probe, h) }

// TestAndAdd inserts key and reports whether all its counters were
// nonzero just before its own increments, that is whether Test would have
// answered true. It is one call of a kernel, as Add.
func (f *Filter) TestAndAdd(key []byte) bool { return asm.CountingTestAndAddKey(&f.probe, key) }

// TestAndAddUint64 is TestAndAdd of the 8 little-endian bytes of k.
func (f *Filter) TestAndAddUint64(k uint64) bool {
	return asm.CountingTestAndAddUint64(&f.probe, k)
}

// TestAndAddHash is TestAndAdd of a hash.
func (f *Filter) TestAndAddHash(h uint64) bool { return asm.CountingTestAndAddHash(&f.probe, h) }

// Test reports whether key may be in the filter: false means it certainly
// is not (unless it was removed, or a key never added was removed). It is
// one call of the asm.CountingTestKey kernel, which hashes an 8-byte key
// and tests a round of 4-bit counters in registers (its Go twin for
// every other key and filter).
func (f *Filter) Test(key []byte) bool { return asm.CountingTestKey(&f.probe, key) }

// TestUint64 is Test of the 8 little-endian bytes of k.
func (f *Filter) TestUint64(k uint64) bool { return asm.CountingTestUint64(&f.probe, k) }

// TestString is Test of the bytes of s, without copying them (the
// kernel only reads them).
func (f *Filter) TestString(s string) bool { return f.Test(unsafe.Slice(unsafe.StringData(s), len(s))) }

// TestHash is Test of a hash: all of its counters are nonzero. It is one
// call of the asm.CountingTestHash kernel, as Test.
func (f *Filter) TestHash(h uint64) bool { return asm.CountingTestHash(&f.probe, h) }

// Remove deletes one insertion of key and reports true, or reports false
// and changes nothing when key tests absent. Saturated counters are never
// decremented, so overflow cannot cause a false negative. Removing a key
// that was never added but tests present (a false positive) decrements
// counters of other keys and can make them test absent: remove only keys
// you added. It is one call of the asm.CountingRemoveKey kernel, as Add.
func (f *Filter) Remove(key []byte) bool { return asm.CountingRemoveKey(&f.probe, key) }

// RemoveUint64 is Remove of the 8 little-endian bytes of k.
func (f *Filter) RemoveUint64(k uint64) bool { return asm.CountingRemoveUint64(&f.probe, k) }

// RemoveString is Remove of the bytes of s, without copying them (the
// kernel only reads them).
func (f *Filter) RemoveString(s string) bool {
	return f.Remove(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// RemoveHash is Remove of a hash.
func (f *Filter) RemoveHash(h uint64) bool { return asm.CountingRemoveHash(&f.probe, h) }

// removeHash is RemoveHash by plain stores (opRemove, the kernel) or by
// CAS (opRemoveAtomic).
func (f *Filter) removeHash(h uint64, o op) bool {
	if o == opRemove {
		return asm.CountingRemoveHash(&f.probe, h)
	}
	f.mustHaveLines()
	ln := asm.CountingLine(f.words, h, f.lines)
	if !asm.CountingTest(ln, h, f.k, f.wide) {
		runtime.KeepAlive(f)
		return false
	}
	f.update(h, o)
	return true
}

// Count returns the smallest of key's counters: an upper bound on how many
// times key was added and not removed (0 means absent), capped at the
// counter maximum 15 or 255.
func (f *Filter) Count(key []byte) uint32 { return f.CountHash(f.hash(key)) }

// CountHash is Count of a hash.
func (f *Filter) CountHash(h uint64) uint32 {
	return uint32(f.update(h, opLeast))
}
