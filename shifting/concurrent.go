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
