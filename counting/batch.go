package counting

import (
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
)

// chunk is how many keys the key and integer batch forms hash at a time,
// in a buffer on the stack.
const chunk = 256

// ahead is how many keys ahead AddHashes and RemoveHashes request a
// key's line (asm.CountingPrefetch): a locked CAS waits for every earlier
// load, so updating key after key serializes their cache misses unless
// the lines were requested first.
const ahead = 8

// prefetchAhead requests the line of hs[i+ahead], or at i = 0 the lines
// of the first ahead keys.
func (f *Filter) prefetchAhead(hs []uint64, i int) {
	switch {
	case f.v1:
	case i == 0:
		asm.CountingPrefetch(f.words, f.lines, hs[:min(len(hs), ahead+1)])
	case i+ahead < len(hs):
		asm.CountingPrefetch(f.words, f.lines, hs[i+ahead:i+ahead+1])
	}
}

// AddHashes inserts every hash of hs.
func (f *Filter) AddHashes(hs []uint64) {
	if len(hs) > 0 {
		f.mustHaveLines()
	}
	for i, h := range hs {
		f.prefetchAhead(hs, i)
		f.AddHash(h)
	}
}

// TestHashes sets out[i] to TestHash(hs[i]) and returns how many are true;
// out must be at least as long as hs. It runs the batch kernel of asm.
func (f *Filter) TestHashes(hs []uint64, out []bool) int {
	if len(hs) == 0 {
		return 0
	}
	if f.lines == 0 { // the zero Filter holds nothing
		clear(out[:len(hs)])
		return 0
	}
	if f.v1 {
		out = out[:len(hs)]
		n := 0
		for i, h := range hs {
			out[i] = f.v1Test(h)
			if out[i] {
				n++
			}
		}
		return n
	}
	n := asm.CountingTestHashes(f.words, f.lines, f.k, f.wide, hs, out)
	runtime.KeepAlive(f.storage)
	return n
}

// RemoveHashes sets out[i] to RemoveHash(hs[i]), in order, and returns how
// many were removed; out must be at least as long as hs.
func (f *Filter) RemoveHashes(hs []uint64, out []bool) int {
	out = out[:len(hs)]
	if f.lines == 0 {
		clear(out)
		return 0
	}
	n := 0
	for i, h := range hs {
		f.prefetchAhead(hs, i)
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
	return f.keyChunks(keys, out, false)
}

// keyChunks hashes keys a chunk at a time and runs TestHashes (or
// RemoveHashes when remove) on each chunk's hashes and its part of out,
// summing what they return. A flag, not a func value: through a func
// value the stack buffer of hashes would escape to the heap.
func (f *Filter) keyChunks(keys [][]byte, out []bool, remove bool) int {
	out = out[:len(keys)]
	var hs [chunk]uint64
	n := 0
	for len(keys) > 0 {
		m := min(len(keys), chunk)
		for i, k := range keys[:m] {
			hs[i] = engine.HashSeed(k, f.seed)
		}
		n += f.testOrRemove(hs[:m], out[:m], remove)
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
	return f.uint64Chunks(ks, out, false)
}

// uint64Chunks is keyChunks for integer keys, hashed in batch.
func (f *Filter) uint64Chunks(ks []uint64, out []bool, remove bool) int {
	out = out[:len(ks)]
	var hs [chunk]uint64
	n := 0
	for len(ks) > 0 {
		m := min(len(ks), chunk)
		asm.HashUint64s(hs[:m], ks[:m], f.seed)
		n += f.testOrRemove(hs[:m], out[:m], remove)
		ks, out = ks[m:], out[m:]
	}
	return n
}

func (f *Filter) testOrRemove(hs []uint64, out []bool, remove bool) int {
	if remove {
		return f.RemoveHashes(hs, out)
	}
	return f.TestHashes(hs, out)
}

// RemoveUint64s sets out[i] to Remove of the 8 little-endian bytes of
// ks[i] and returns how many were removed.
func (f *Filter) RemoveUint64s(ks []uint64, out []bool) int {
	return f.uint64Chunks(ks, out, true)
}

// RemoveKeys sets out[i] to Remove(keys[i]), in order, and returns how
// many were removed; out must be at least as long as keys.
func (f *Filter) RemoveKeys(keys [][]byte, out []bool) int {
	return f.keyChunks(keys, out, true)
}
