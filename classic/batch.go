package classic

import (
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
)

// probeWindow is how many probe positions one chunk of a batch computes
// before it consumes them: a chunk holds probeWindow/k keys (at least one).
// 256 positions keep both buffers (4 KiB) in L1.
const probeWindow = 256

// hashChunk is how many keys AddKeys/TestKeys/AddUint64s/TestUint64s hash
// into a stack buffer before handing them to the hash batch.
const hashChunk = 256

// AddHashes inserts every hash of hs.
func (f *Filter) AddHashes(hs []uint64) {
	var pos [probeWindow]uint64
	w := f.st.Words()
	per := max(1, probeWindow/int(f.k))
	var touched uint64
	for len(hs) > 0 {
		c := hs[:min(per, len(hs))]
		hs = hs[len(c):]
		// Pass 1: every position of the chunk, each word loaded once with
		// no branch, so the misses of the whole chunk are in flight at once.
		n := 0
		for _, h := range c {
			p := NewProbe(h, f.m)
			for range f.k {
				i := p.Next()
				pos[n] = i
				touched |= w[i/64]
				n++
			}
		}
		// Pass 2: set the bits; the lines are in L1 now.
		for _, i := range pos[:n] {
			w[i/64] |= 1 << (i % 64)
		}
	}
	runtime.KeepAlive(touched)
	runtime.KeepAlive(f.st)
}

// TestHashes sets out[i] to TestHash(hs[i]) and returns how many are true.
// out must be at least as long as hs.
func (f *Filter) TestHashes(hs []uint64, out []bool) int {
	var pos, val [probeWindow]uint64
	out = out[:len(hs)]
	w := f.st.Words()
	k := int(f.k)
	per := max(1, probeWindow/k)
	hits := 0
	for base := 0; base < len(hs); base += per {
		c := hs[base:min(base+per, len(hs))]
		// Pass 1: gather the probed words of the whole chunk.
		n := 0
		for _, h := range c {
			p := NewProbe(h, f.m)
			for range k {
				i := p.Next()
				pos[n] = i
				val[n] = w[i/64]
				n++
			}
		}
		// Pass 2: test, branch-free, from the gathered words.
		for j := range c {
			acc := uint64(1)
			for q := j * k; q < (j+1)*k; q++ {
				acc &= val[q] >> (pos[q] % 64)
			}
			out[base+j] = acc != 0
			hits += int(acc)
		}
	}
	runtime.KeepAlive(f.st)
	return hits
}

// AddKeys inserts every key.
func (f *Filter) AddKeys(keys [][]byte) {
	var hs [hashChunk]uint64
	for len(keys) > 0 {
		c := keys[:min(hashChunk, len(keys))]
		keys = keys[len(c):]
		for i, k := range c {
			hs[i] = engine.HashSeed(k, f.seed)
		}
		f.AddHashes(hs[:len(c)])
	}
}

// TestKeys sets out[i] to Test(keys[i]) and returns how many are true.
func (f *Filter) TestKeys(keys [][]byte, out []bool) int {
	var hs [hashChunk]uint64
	out = out[:len(keys)]
	hits := 0
	for base := 0; base < len(keys); base += hashChunk {
		c := keys[base:min(base+hashChunk, len(keys))]
		for i, k := range c {
			hs[i] = engine.HashSeed(k, f.seed)
		}
		hits += f.TestHashes(hs[:len(c)], out[base:])
	}
	return hits
}

// AddUint64s inserts the 8 little-endian bytes of every key, hashed in
// batch by asm.HashUint64s.
func (f *Filter) AddUint64s(ks []uint64) {
	var hs [hashChunk]uint64
	for len(ks) > 0 {
		c := ks[:min(hashChunk, len(ks))]
		ks = ks[len(c):]
		asm.HashUint64s(hs[:], c, f.seed)
		f.AddHashes(hs[:len(c)])
	}
}

// TestUint64s sets out[i] to Test of the 8 little-endian bytes of ks[i]
// and returns how many are true.
func (f *Filter) TestUint64s(ks []uint64, out []bool) int {
	var hs [hashChunk]uint64
	out = out[:len(ks)]
	hits := 0
	for base := 0; base < len(ks); base += hashChunk {
		c := ks[base:min(base+hashChunk, len(ks))]
		asm.HashUint64s(hs[:], c, f.seed)
		hits += f.TestHashes(hs[:len(c)], out[base:])
	}
	return hits
}

// AddHashesConcurrent inserts every hash with atomic ORs; safe from many
// goroutines at once.
func (f *Filter) AddHashesConcurrent(hs []uint64) {
	for _, h := range hs {
		f.AddHashConcurrent(h)
	}
}
