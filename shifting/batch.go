package shifting

import (
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/internal/batch"
)

// AddHashes inserts every hash of hs.
func (f *Filter) AddHashes(hs []uint64) {
	for _, h := range hs {
		f.AddHash(h)
	}
}

// TestHashes sets out[i] = TestHash(hs[i]) and returns the number of
// hits. The probe pairs run in the asm.ShiftingTestHashes kernel (AVX2 /
// AVX-512 gathers of unaligned words); the second array, if any, is
// checked for the hits only. out must be at least as long as hs.
func (f *Filter) TestHashes(hs []uint64, out []bool) int {
	out = batch.Out("shifting", out, len(hs))
	w := f.bits()
	hits := asm.ShiftingTestHashes(w, f.p.M, f.p.K/2, hs, out)
	if f.p.M2 != 0 {
		for i, h := range hs {
			if out[i] && !f.p.SecondHas(h) {
				out[i] = false
				hits--
			}
		}
	}
	runtime.KeepAlive(f.st)
	return hits
}

// AddKeys inserts every key.
func (f *Filter) AddKeys(keys [][]byte) {
	batch.AddKeys(f.AddHashes, keys, f.p.Seed)
}

// TestKeys sets out[i] = Test(keys[i]) and returns the number of hits.
func (f *Filter) TestKeys(keys [][]byte, out []bool) int {
	return batch.TestKeys(f.TestHashes, keys, f.p.Seed, batch.Out("shifting", out, len(keys)))
}

// AddUint64s inserts every integer key (its 8 little-endian bytes).
func (f *Filter) AddUint64s(ks []uint64) {
	batch.AddUint64s(f.AddHashes, ks, f.p.Seed)
}

// TestUint64s sets out[i] = Test of the 8 little-endian bytes of ks[i]
// and returns the number of hits; hashing and testing both run in batch
// kernels.
func (f *Filter) TestUint64s(ks []uint64, out []bool) int {
	return batch.TestUint64s(f.TestHashes, ks, f.p.Seed, batch.Out("shifting", out, len(ks)))
}

// AddHashesConcurrent inserts every hash with atomic ORs; safe beside
// the other concurrent methods.
func (f *Filter) AddHashesConcurrent(hs []uint64) {
	for _, h := range hs {
		f.TestAndAddHash(h)
	}
}

// AddUint64sConcurrent inserts every integer key with atomic ORs, hashed
// in batch; safe beside the other concurrent methods.
func (f *Filter) AddUint64sConcurrent(ks []uint64) {
	batch.AddUint64s(f.AddHashesConcurrent, ks, f.p.Seed)
}
