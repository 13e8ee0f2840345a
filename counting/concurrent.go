package counting

import (
	"unsafe"

	"github.com/filterengine/filterengine/internal/hashing"
)

// The *Concurrent forms of the family contract (engine's doc), and the
// Remove forms counting adds to them. They change each counter by a
// compare-and-swap, lock-free, with sticky saturation, so any number of
// goroutines may call them at once, beside each other and beside every
// read; the plain Add and Remove forms store without a lock and need the
// filter to themselves. Reads load each word atomically, so the Test
// forms are the plain methods.

// AddConcurrent is Add by CAS.
func (f *Filter) AddConcurrent(key []byte) { f.addAtomic(f.hash(key)) }

// AddHashConcurrent is AddHash by CAS.
func (f *Filter) AddHashConcurrent(h uint64) { f.addAtomic(h) }

// AddHashesConcurrent is AddHashes by CAS.
func (f *Filter) AddHashesConcurrent(hs []uint64) { f.addHashes(hs, opAddAtomic) }

// AddUint64sConcurrent is AddUint64s by CAS.
func (f *Filter) AddUint64sConcurrent(ks []uint64) { f.addUint64s(ks, opAddAtomic) }

// TestAndAddConcurrent is TestAndAdd by CAS: each counter is judged at
// the moment of its own CAS.
func (f *Filter) TestAndAddConcurrent(key []byte) bool {
	return f.TestAndAddHashConcurrent(f.hash(key))
}

// TestAndAddHashConcurrent is TestAndAddHash by CAS, with the guarantee
// of the family contract's concurrent dedup: a key added by any goroutine
// stays present (until a Remove of it); of calls racing for one new key,
// at least one returns false (the first CAS to raise one of its zero
// counters sees it zero). Every call increments the key's counters,
// whatever it answers, as TestAndAdd does.
func (f *Filter) TestAndAddHashConcurrent(h uint64) bool {
	return f.addAtomic(h)
}

// TestAndAddUint64Concurrent is TestAndAddConcurrent of the 8
// little-endian bytes of k.
func (f *Filter) TestAndAddUint64Concurrent(k uint64) bool {
	return f.addAtomic(hashing.HashUint64Keyed(k, f.key))
}

// TestAndAddStringConcurrent is TestAndAddConcurrent of the bytes of s,
// without copying them.
func (f *Filter) TestAndAddStringConcurrent(s string) bool {
	return f.addAtomic(f.hash(unsafe.Slice(unsafe.StringData(s), len(s))))
}

// RemoveConcurrent is Remove by CAS. A Remove that races an Add of the
// same key may find it absent and report false; or it may find the key
// present through counters other keys hold before the Add reaches them,
// and take one of those to zero, so that another key tests absent until
// the Add completes. Remove only keys added before the call began.
func (f *Filter) RemoveConcurrent(key []byte) bool {
	return f.removeHash(f.hash(key), opRemoveAtomic)
}

// RemoveHashConcurrent is RemoveHash by CAS.
func (f *Filter) RemoveHashConcurrent(h uint64) bool { return f.removeHash(h, opRemoveAtomic) }

// RemoveHashesConcurrent is RemoveHashes by CAS.
func (f *Filter) RemoveHashesConcurrent(hs []uint64, out []bool) int {
	return f.removeHashes(hs, out, opRemoveAtomic)
}

// RemoveUint64sConcurrent is RemoveUint64s by CAS.
func (f *Filter) RemoveUint64sConcurrent(ks []uint64, out []bool) int {
	return f.chunks(nil, ks, out, opRemoveAtomic)
}

// TestConcurrent is Test.
func (f *Filter) TestConcurrent(key []byte) bool { return f.Test(key) }

// TestHashConcurrent is TestHash.
func (f *Filter) TestHashConcurrent(h uint64) bool { return f.TestHash(h) }
