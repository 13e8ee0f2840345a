package counting

import (
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/internal/batch"
)

// prefetchDist is how many keys ahead AddHashes and RemoveHashes request
// a key's line (asm.CountingPrefetch), the distance the batch kernels
// name dist: a locked CAS waits for every earlier load, so the CAS
// writers serialize their keys' cache misses unless the lines were
// requested first, and the plain writers gain from it too once the
// filter is larger than the cache.
const prefetchDist = 8

// prefetch requests lines a group of prefetchDist keys at a time, one
// kernel call per group: at i = 0 the lines of the first two groups, and
// at the start of every later group those of the group after it, so a
// key's line is requested between prefetchDist and 2*prefetchDist keys
// before its update.
func (f *Filter) prefetch(hs []uint64, i int) {
	if i%prefetchDist != 0 {
		return
	}
	lo := i + prefetchDist
	if i == 0 {
		lo = 0
	}
	if lo < len(hs) {
		asm.CountingPrefetch(f.words, f.lines, hs[lo:min(len(hs), i+2*prefetchDist)])
	}
}

// AddHashes inserts every hash of hs.
func (f *Filter) AddHashes(hs []uint64) { f.addHashes(hs, opAdd) }

// addHashes is AddHashes by plain stores (opAdd: the single-key kernel
// per hash) or by CAS (opAddAtomic).
func (f *Filter) addHashes(hs []uint64, o op) {
	f.mustHaveLines()
	for i, h := range hs {
		f.prefetch(hs, i)
		if o == opAdd {
			asm.CountingAddHash(&f.probe, h)
		} else {
			f.addAtomic(h)
		}
	}
}

// TestHashes sets out[i] to TestHash(hs[i]) and returns how many are true;
// out must be at least as long as hs. It runs the batch kernel of asm.
func (f *Filter) TestHashes(hs []uint64, out []bool) int {
	out = batch.Out("counting", out, len(hs))
	f.mustHaveLines()
	if len(hs) == 0 {
		return 0
	}
	n := asm.CountingTestHashes(f.words, f.lines, f.k, f.wide, hs, out)
	runtime.KeepAlive(f.storage)
	return n
}

// b2i is 1 for true.
func b2i(b bool) uint {
	var u uint
	if b {
		u = 1
	}
	return u
}

// RemoveHashes sets out[i] to RemoveHash(hs[i]), in order, and returns how
// many were removed; out must be at least as long as hs.
func (f *Filter) RemoveHashes(hs []uint64, out []bool) int {
	return f.removeHashes(hs, out, opRemove)
}

// removeHashes is RemoveHashes by plain stores (opRemove) or by CAS
// (opRemoveAtomic).
func (f *Filter) removeHashes(hs []uint64, out []bool, o op) int {
	out = batch.Out("counting", out, len(hs))
	f.mustHaveLines()
	n := 0
	for i, h := range hs {
		f.prefetch(hs, i)
		out[i] = f.removeHash(h, o)
		n += int(b2i(out[i]))
	}
	return n
}

// AddKeys inserts every key.
func (f *Filter) AddKeys(keys [][]byte) {
	f.mustHaveLines()
	var b batch.Hashes
	for base := 0; base < len(keys); base += batch.Chunk {
		f.addHashes(b.Keys(keys[base:], f.seed), opAdd)
	}
}

// TestKeys sets out[i] to Test(keys[i]) and returns how many are true;
// out must be at least as long as keys.
func (f *Filter) TestKeys(keys [][]byte, out []bool) int { return f.chunks(keys, nil, out, opLeast) }

// RemoveKeys sets out[i] to Remove(keys[i]), in order, and returns how
// many were removed; out must be at least as long as keys.
func (f *Filter) RemoveKeys(keys [][]byte, out []bool) int {
	return f.chunks(keys, nil, out, opRemove)
}

// TestUint64s sets out[i] to Test of the 8 little-endian bytes of ks[i]
// and returns how many are true; out must be at least as long as ks.
func (f *Filter) TestUint64s(ks []uint64, out []bool) int { return f.chunks(nil, ks, out, opLeast) }

// RemoveUint64s sets out[i] to Remove of the 8 little-endian bytes of
// ks[i], in order, and returns how many were removed; out must be at
// least as long as ks.
func (f *Filter) RemoveUint64s(ks []uint64, out []bool) int {
	return f.chunks(nil, ks, out, opRemove)
}

// AddUint64s inserts the 8 little-endian bytes of every key, hashed in
// batch.
func (f *Filter) AddUint64s(ks []uint64) { f.addUint64s(ks, opAdd) }

// addUint64s is AddUint64s by plain stores (opAdd) or by CAS
// (opAddAtomic).
func (f *Filter) addUint64s(ks []uint64, o op) {
	f.mustHaveLines()
	var b batch.Hashes
	for base := 0; base < len(ks); base += batch.Chunk {
		f.addHashes(b.Uint64s(ks[base:], f.seed), o)
	}
}

// chunks hashes keys, or the integer keys ks when keys is nil, a chunk
// at a time (internal/batch) and runs TestHashes (o = opLeast) or
// removeHashes with o on each chunk. An op, not a func value: through a
// func value the stack buffer would escape.
func (f *Filter) chunks(keys [][]byte, ks []uint64, out []bool, o op) int {
	n := max(len(keys), len(ks))
	out = batch.Out("counting", out, n)
	var b batch.Hashes
	hits := 0
	for base := 0; base < n; base += batch.Chunk {
		var hs []uint64
		if keys != nil {
			hs = b.Keys(keys[base:], f.seed)
		} else {
			hs = b.Uint64s(ks[base:], f.seed)
		}
		if o != opLeast {
			hits += f.removeHashes(hs, out[base:], o)
		} else {
			hits += f.TestHashes(hs, out[base:])
		}
	}
	return hits
}
