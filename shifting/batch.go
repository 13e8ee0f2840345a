package shifting

import (
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
)

// chunk is how many keys the key and integer batch forms hash at once into
// a stack buffer before testing them with the kernel.
const chunk = 256

// AddHashes inserts every hash of hs.
func (f *Filter) AddHashes(hs []uint64) {
	for _, h := range hs {
		f.AddHash(h)
	}
}

// TestHashes sets out[i] = TestHash(hs[i]) and returns the number of
// hits. The probe pairs run in the asm.ShiftingTest kernel (AVX2 / AVX-512
// gathers of unaligned words); the second array, if any, is checked for
// the hits only. out must be at least as long as hs.
func (f *Filter) TestHashes(hs []uint64, out []bool) int {
	w := f.st.Words()
	hits := asm.ShiftingTest(w, f.m, f.k/2, hs, out)
	if f.m2 != 0 {
		for i, h := range hs {
			if out[i] && !f.secondHas(w, h) {
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
	for _, k := range keys {
		f.AddHash(engine.HashSeed(k, f.seed))
	}
}

// TestKeys sets out[i] = Test(keys[i]) and returns the number of hits.
func (f *Filter) TestKeys(keys [][]byte, out []bool) int {
	if len(out) < len(keys) {
		panic("shifting: TestKeys out shorter than keys")
	}
	var buf [chunk]uint64
	hits := 0
	for len(keys) > 0 {
		n := min(len(keys), chunk)
		for i, k := range keys[:n] {
			buf[i] = engine.HashSeed(k, f.seed)
		}
		hits += f.TestHashes(buf[:n], out[:n])
		keys, out = keys[n:], out[n:]
	}
	return hits
}

// AddUint64s inserts every integer key (its 8 little-endian bytes).
func (f *Filter) AddUint64s(ks []uint64) {
	var buf [chunk]uint64
	for len(ks) > 0 {
		n := min(len(ks), chunk)
		asm.HashUint64s(buf[:n], ks[:n], f.seed)
		f.AddHashes(buf[:n])
		ks = ks[n:]
	}
}

// TestUint64s sets out[i] = Test of the 8 little-endian bytes of ks[i]
// and returns the number of hits; hashing and testing both run in batch
// kernels.
func (f *Filter) TestUint64s(ks []uint64, out []bool) int {
	if len(out) < len(ks) {
		panic("shifting: TestUint64s out shorter than keys")
	}
	var buf [chunk]uint64
	hits := 0
	for len(ks) > 0 {
		n := min(len(ks), chunk)
		asm.HashUint64s(buf[:n], ks[:n], f.seed)
		hits += f.TestHashes(buf[:n], out[:n])
		ks, out = ks[n:], out[n:]
	}
	return hits
}
