package classic

import (
	"runtime"
	"sync/atomic"

	"github.com/filterengine/filterengine/engine"
)

// TestAndAddHashConcurrent inserts the key with hash h and reports whether
// it tested present before, with the guarantee of the family contract's
// concurrent dedup: it may run beside every other *Concurrent call; a key
// added by any goroutine stays present; of calls racing for one new key,
// at least one returns false. Each probe is one atomic OR that returns
// the word before it, and the key tested present iff every probed bit was
// set already; the first OR to set one of a new key's unset bits sees it
// unset, so its call answers false.
func (f *Filter) TestAndAddHashConcurrent(h uint64) bool {
	w := f.words()
	p := newProbe(h, f.m)
	present := true
	for range f.k {
		i := p.next()
		bit := uint64(1) << (i % 64)
		present = atomic.OrUint64(&w[i/64], bit)&bit != 0 && present
	}
	runtime.KeepAlive(f.st)
	return present
}

// TestAndAddConcurrent is TestAndAdd for concurrent writers (see
// TestAndAddHashConcurrent).
func (f *Filter) TestAndAddConcurrent(key []byte) bool {
	return f.TestAndAddHashConcurrent(engine.HashSeed(key, f.seed))
}

// TestAndAddUint64Concurrent is TestAndAddConcurrent of the 8
// little-endian bytes of k.
func (f *Filter) TestAndAddUint64Concurrent(k uint64) bool {
	return f.TestAndAddHashConcurrent(engine.HashUint64Seed(k, f.seed))
}

// TestAndAddStringConcurrent is TestAndAddConcurrent of the bytes of s,
// without copying them.
func (f *Filter) TestAndAddStringConcurrent(s string) bool {
	return f.TestAndAddHashConcurrent(engine.HashStringSeed(s, f.seed))
}
