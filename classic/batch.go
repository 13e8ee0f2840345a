package classic

import (
	"github.com/filterengine/filterengine/internal/batch"
	"github.com/filterengine/filterengine/internal/store"
)

// AddHashes inserts every hash of hs.
func (f *Filter) AddHashes(hs []uint64) {
	addRange(f.st, f.m, f.k, hs)
}

// TestHashes sets out[i] to TestHash(hs[i]) and returns how many are true.
// out must be at least as long as hs.
func (f *Filter) TestHashes(hs []uint64, out []bool) int {
	return testRange(f.st, f.m, f.k, hs, batch.Out("classic", out, len(hs)))
}

// addRange and testRange are AddHash and TestHash over a slice: the
// single-key probe key after key, so the batch is never slower than a
// loop of single-key calls.

func addRange(st *store.Storage, m uint64, k uint32, hs []uint64) {
	for _, h := range hs {
		addHash(st, m, k, h)
	}
}

func testRange(st *store.Storage, m uint64, k uint32, hs []uint64, out []bool) int {
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
func (f *Filter) AddKeys(keys [][]byte) { batch.AddKeys(f.AddHashes, keys, f.seed) }

// TestKeys sets out[i] to Test(keys[i]) and returns how many are true.
func (f *Filter) TestKeys(keys [][]byte, out []bool) int {
	return batch.TestKeys(f.TestHashes, keys, f.seed, batch.Out("classic", out, len(keys)))
}

// AddUint64s inserts the 8 little-endian bytes of every key, hashed in
// batch by asm.HashUint64s.
func (f *Filter) AddUint64s(ks []uint64) { batch.AddUint64s(f.AddHashes, ks, f.seed) }

// TestUint64s sets out[i] to Test of the 8 little-endian bytes of ks[i]
// and returns how many are true.
func (f *Filter) TestUint64s(ks []uint64, out []bool) int {
	return batch.TestUint64s(f.TestHashes, ks, f.seed, batch.Out("classic", out, len(ks)))
}

// AddHashesConcurrent inserts every hash with atomic ORs; safe from many
// goroutines at once.
func (f *Filter) AddHashesConcurrent(hs []uint64) {
	for _, h := range hs {
		f.AddHashConcurrent(h)
	}
}

// AddUint64sConcurrent inserts the 8 little-endian bytes of every key
// with atomic ORs, hashed in batch; safe from many goroutines at once.
func (f *Filter) AddUint64sConcurrent(ks []uint64) {
	batch.AddUint64s(f.AddHashesConcurrent, ks, f.seed)
}
