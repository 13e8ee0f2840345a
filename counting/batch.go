package counting

import (
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
)

// chunk is how many keys the key and integer batch forms hash at a time,
// in a buffer on the stack.
const chunk = 256

// group is how many keys AddHashes and RemoveHashes touch ahead of their
// CASes. A locked CAS waits for every earlier load, so one key at a time
// serializes the cache misses; loading a word of group lines first lets
// those misses overlap and the CASes then hit the cache.
const group = 16

// touch loads one word of each cache line of each hash's line and
// returns them ORed, so the loads are not dead code.
func (f *Filter) touch(hs []uint64) uint64 {
	var acc uint64
	for _, h := range hs {
		ln := f.line(h)
		for c := 0; c < len(ln); c += 8 {
			acc |= load(&ln[c])
		}
	}
	return acc
}

// AddHashes inserts every hash of hs.
func (f *Filter) AddHashes(hs []uint64) {
	for len(hs) > 0 {
		m := min(len(hs), group)
		if f.touch(hs[:m]) == 1<<63 {
			runtime.Gosched() // never taken in practice; keeps the loads live
		}
		for _, h := range hs[:m] {
			f.AddHash(h)
		}
		hs = hs[m:]
	}
}

// TestHashes sets out[i] to TestHash(hs[i]) and returns how many are true;
// out must be at least as long as hs. It runs the batch kernel of asm.
func (f *Filter) TestHashes(hs []uint64, out []bool) int {
	if len(hs) == 0 {
		return 0
	}
	n := asm.CountingTestHashes(f.words, f.lines, f.k, f.wide, hs, out)
	runtime.KeepAlive(f.storage)
	return n
}

// RemoveHashes sets out[i] to RemoveHash(hs[i]), in order, and returns how
// many were removed; out must be at least as long as hs.
func (f *Filter) RemoveHashes(hs []uint64, out []bool) int {
	out = out[:len(hs)]
	n := 0
	for i, h := range hs {
		if i%group == 0 && f.touch(hs[i:min(len(hs), i+group)]) == 1<<63 {
			runtime.Gosched()
		}
		out[i] = f.RemoveHash(h)
		if out[i] {
			n++
		}
	}
	return n
}

// AddKeys inserts every key.
func (f *Filter) AddKeys(keys [][]byte) {
	var hs [chunk]uint64
	for len(keys) > 0 {
		m := min(len(keys), chunk)
		for i, k := range keys[:m] {
			hs[i] = engine.HashSeed(k, f.seed)
		}
		f.AddHashes(hs[:m])
		keys = keys[m:]
	}
}

// TestKeys sets out[i] to Test(keys[i]) and returns how many are true.
func (f *Filter) TestKeys(keys [][]byte, out []bool) int {
	out = out[:len(keys)]
	var hs [chunk]uint64
	n := 0
	for len(keys) > 0 {
		m := min(len(keys), chunk)
		for i, k := range keys[:m] {
			hs[i] = engine.HashSeed(k, f.seed)
		}
		n += f.TestHashes(hs[:m], out[:m])
		keys, out = keys[m:], out[m:]
	}
	return n
}

// AddUint64s inserts the 8 little-endian bytes of every key, hashed in
// batch.
func (f *Filter) AddUint64s(ks []uint64) {
	var hs [chunk]uint64
	for len(ks) > 0 {
		m := min(len(ks), chunk)
		asm.HashUint64s(hs[:m], ks[:m], f.seed)
		f.AddHashes(hs[:m])
		ks = ks[m:]
	}
}

// TestUint64s sets out[i] to Test of the 8 little-endian bytes of ks[i]
// and returns how many are true.
func (f *Filter) TestUint64s(ks []uint64, out []bool) int {
	out = out[:len(ks)]
	var hs [chunk]uint64
	n := 0
	for len(ks) > 0 {
		m := min(len(ks), chunk)
		asm.HashUint64s(hs[:m], ks[:m], f.seed)
		n += f.TestHashes(hs[:m], out[:m])
		ks, out = ks[m:], out[m:]
	}
	return n
}

// RemoveUint64s sets out[i] to Remove of the 8 little-endian bytes of
// ks[i] and returns how many were removed.
func (f *Filter) RemoveUint64s(ks []uint64, out []bool) int {
	out = out[:len(ks)]
	var hs [chunk]uint64
	n := 0
	for len(ks) > 0 {
		m := min(len(ks), chunk)
		asm.HashUint64s(hs[:m], ks[:m], f.seed)
		n += f.RemoveHashes(hs[:m], out[:m])
		ks, out = ks[m:], out[m:]
	}
	return n
}
