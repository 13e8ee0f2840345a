package classic

import (
	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
)

// hashChunk is how many keys AddKeys/TestKeys/AddUint64s/TestUint64s hash
// into a stack buffer before handing them to the hash batch.
const hashChunk = 256

// AddHashes inserts every hash of hs.
func (f *Filter) AddHashes(hs []uint64) {
	addRange(f.st, f.m, f.k, hs)
}

// TestHashes sets out[i] to TestHash(hs[i]) and returns how many are true.
// out must be at least as long as hs.
func (f *Filter) TestHashes(hs []uint64, out []bool) int {
	return testRange(f.st, f.m, f.k, hs, out[:len(hs)])
}

// addRange and testRange are AddHash and TestHash over a slice: the
// single-key probe key after key, so the batch is never slower than a
// loop of single-key calls.

func addRange(st *engine.Storage, m uint64, k uint32, hs []uint64) {
	for _, h := range hs {
		addHash(st, m, k, h)
	}
}

func testRange(st *engine.Storage, m uint64, k uint32, hs []uint64, out []bool) int {
	hits := 0
	out = out[:len(hs)]
	for j, h := range hs {
		hit := testHash(st, m, k, h)
		out[j] = hit
		if hit {
			hits++
		}
	}
	return hits
}

// AddKeys inserts every key.
func (f *Filter) AddKeys(keys [][]byte) {
	var hs [hashChunk]uint64
	for base := 0; base < len(keys); base += hashChunk {
		f.AddHashes(hashKeys(&hs, keys[base:], f.seed))
	}
}

// TestKeys sets out[i] to Test(keys[i]) and returns how many are true.
func (f *Filter) TestKeys(keys [][]byte, out []bool) int {
	var hs [hashChunk]uint64
	out = out[:len(keys)]
	hits := 0
	for base := 0; base < len(keys); base += hashChunk {
		hits += f.TestHashes(hashKeys(&hs, keys[base:], f.seed), out[base:])
	}
	return hits
}

// AddUint64s inserts the 8 little-endian bytes of every key, hashed in
// batch by asm.HashUint64s.
func (f *Filter) AddUint64s(ks []uint64) {
	var hs [hashChunk]uint64
	for base := 0; base < len(ks); base += hashChunk {
		f.AddHashes(hashUint64s(&hs, ks[base:], f.seed))
	}
}

// TestUint64s sets out[i] to Test of the 8 little-endian bytes of ks[i]
// and returns how many are true.
func (f *Filter) TestUint64s(ks []uint64, out []bool) int {
	var hs [hashChunk]uint64
	out = out[:len(ks)]
	hits := 0
	for base := 0; base < len(ks); base += hashChunk {
		hits += f.TestHashes(hashUint64s(&hs, ks[base:], f.seed), out[base:])
	}
	return hits
}

// hashKeys hashes up to hashChunk keys into hs and returns the filled part.
func hashKeys(hs *[hashChunk]uint64, keys [][]byte, seed uint64) []uint64 {
	c := keys[:min(hashChunk, len(keys))]
	for i, k := range c {
		hs[i] = engine.HashSeed(k, seed)
	}
	return hs[:len(c)]
}

// hashUint64s hashes up to hashChunk integer keys into hs in batch.
func hashUint64s(hs *[hashChunk]uint64, ks []uint64, seed uint64) []uint64 {
	c := ks[:min(hashChunk, len(ks))]
	asm.HashUint64s(hs[:], c, seed)
	return hs[:len(c)]
}

// AddHashesConcurrent inserts every hash with atomic ORs; safe from many
// goroutines at once.
func (f *Filter) AddHashesConcurrent(hs []uint64) {
	for _, h := range hs {
		f.AddHashConcurrent(h)
	}
}
