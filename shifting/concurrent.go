package shifting

import (
	"runtime"
	"sync/atomic"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/hashing"
)

// AddConcurrent inserts key with atomic ORs; safe beside the other
// concurrent methods.
func (f *Filter) AddConcurrent(key []byte) { f.TestAndAddHash(engine.HashSeed(key, f.p.Seed)) }

// AddHashConcurrent is AddHash with atomic ORs.
func (f *Filter) AddHashConcurrent(h uint64) { f.TestAndAddHash(h) }

// TestAndAdd inserts key and reports whether every bit it sets was already
// set, that is whether key tested present before. It is lock-free and safe
// beside the other concurrent methods: a pair's two bits may lie in two
// words, so each bit is its own atomic OR, and a key two goroutines insert
// at once may test absent for both.
func (f *Filter) TestAndAdd(key []byte) bool { return f.TestAndAddHash(engine.HashSeed(key, f.p.Seed)) }

// TestAndAddHash is TestAndAdd of a hash.
func (f *Filter) TestAndAddHash(h uint64) bool {
	w := f.bits()
	o := membershipOffset(h, f.p.K/2)
	pa, pb := probeStart(h)
	present := true
	for range f.p.K / 2 {
		pos := hashing.Reduce(pa, f.p.M)
		present = setBitAtomic(w, pos) && present
		present = setBitAtomic(w, pos+o) && present
		pa, pb = pa+pb, pb+phi
	}
	if f.p.M2 != 0 {
		pa += pb
		present = setBitAtomic(w[f.p.Base2:], hashing.Reduce(pa, f.p.M2)) && present
	}
	runtime.KeepAlive(f.st)
	return present
}

// TestAndAddHashConcurrent is TestAndAddHash, which is already made of
// atomic ORs, with the guarantee of the family contract's concurrent
// dedup: it may run beside every other *Concurrent call; a key added by
// any goroutine stays present; of calls racing for one new key, at least
// one returns false (the first OR to set one of its unset bits sees it
// unset), and possibly all of them.
func (f *Filter) TestAndAddHashConcurrent(h uint64) bool { return f.TestAndAddHash(h) }

// TestAndAddConcurrent is TestAndAddHashConcurrent of key's hash.
func (f *Filter) TestAndAddConcurrent(key []byte) bool {
	return f.TestAndAddHash(engine.HashSeed(key, f.p.Seed))
}

// TestAndAddUint64Concurrent is TestAndAddConcurrent of the 8
// little-endian bytes of k.
func (f *Filter) TestAndAddUint64Concurrent(k uint64) bool {
	return f.TestAndAddHash(engine.HashUint64Seed(k, f.p.Seed))
}

// TestAndAddStringConcurrent is TestAndAddConcurrent of the bytes of s,
// without copying them.
func (f *Filter) TestAndAddStringConcurrent(s string) bool {
	return f.TestAndAddHash(engine.HashStringSeed(s, f.p.Seed))
}

// TestConcurrent is Test with atomic loads, safe beside concurrent adds.
func (f *Filter) TestConcurrent(key []byte) bool {
	return f.TestHashConcurrent(engine.HashSeed(key, f.p.Seed))
}

// TestHashConcurrent is TestHash with atomic loads.
func (f *Filter) TestHashConcurrent(h uint64) bool {
	w := f.bits()
	o := membershipOffset(h, f.p.K/2)
	want := 1 | uint64(1)<<o
	pa, pb := probeStart(h)
	ok := true
	for range f.p.K / 2 {
		if windowAtomic(w, hashing.Reduce(pa, f.p.M))&want != want {
			ok = false
			break
		}
		pa, pb = pa+pb, pb+phi
	}
	if ok && f.p.M2 != 0 {
		pa += pb
		q := hashing.Reduce(pa, f.p.M2)
		ok = atomic.LoadUint64(&w[f.p.Base2+q>>6])&(1<<(q&63)) != 0
	}
	runtime.KeepAlive(f.st)
	return ok
}
