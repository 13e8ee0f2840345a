package spatial

import (
	"runtime"
	"sync/atomic"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
)

// hashChunk is how many keys the key forms hash at a time into a stack
// buffer before handing them to the batch kernels.
const hashChunk = 256

// CheckHashes sets out[i] = CheckHash(hs[i]) and returns how many keys
// are in some area (out[i] != 0); out must be at least as long as hs. It
// runs the gather-and-minimum kernel of asm.SpatialCheckHashes (the
// line-local layout: asm.SpatialLineCheckHashes, one Go loop at every
// kernel level).
func (f *Filter) CheckHashes(hs []uint64, out []uint16) int {
	if len(out) < len(hs) {
		panic("spatial: CheckHashes out shorter than hashes")
	}
	var hits int
	if f.lines != 0 {
		hits = asm.SpatialLineCheckHashes(f.cells, f.lines, f.k, f.cellLog, hs, out)
	} else {
		hits = asm.SpatialCheckHashes(f.cells, f.m, f.k, f.cellLog, hs, out)
	}
	runtime.KeepAlive(f.storage)
	return hits
}

// CheckKeys is CheckHashes for keys hashed with Hash.
func (f *Filter) CheckKeys(keys [][]byte, out []uint16) int {
	if len(out) < len(keys) {
		panic("spatial: CheckKeys out shorter than keys")
	}
	var buf [hashChunk]uint64
	hits := 0
	for len(keys) > 0 {
		c := min(len(keys), hashChunk)
		for i, key := range keys[:c] {
			buf[i] = f.Hash(key)
		}
		hits += f.CheckHashes(buf[:c], out[:c])
		keys, out = keys[c:], out[c:]
	}
	return hits
}

// CheckUint64s answers Check for the 8 little-endian bytes of each key,
// hashing them in batch with asm.HashUint64s.
func (f *Filter) CheckUint64s(ks []uint64, out []uint16) int {
	if len(out) < len(ks) {
		panic("spatial: CheckUint64s out shorter than keys")
	}
	var buf [hashChunk]uint64
	hits := 0
	for len(ks) > 0 {
		c := min(len(ks), hashChunk)
		asm.HashUint64s(buf[:c], ks[:c], f.seed)
		hits += f.CheckHashes(buf[:c], out[:c])
		ks, out = ks[c:], out[c:]
	}
	return hits
}

// insertGroup is how many keys a batch insert touches ahead of their
// CASes: a locked CAS waits for every earlier load, so raising one key's
// cells at a time serializes their cache misses, while plain loads of a
// group's cells first let the misses overlap.
const insertGroup = 16

// insertBatch raises the cells of every hash to area, a group at a time
// after touching the group's cells, and adds the batch to the statistics
// once: with many goroutines inserting, per-key updates of the shared
// counters would bounce their cache lines.
func (f *Filter) insertBatch(hs []uint64, area uint32) {
	var coll, self uint64
	n := uint64(len(hs))
	for len(hs) > 0 {
		g := min(len(hs), insertGroup)
		if f.touch(hs[:g]) == 1<<31 {
			runtime.Gosched() // never taken in practice; keeps the loads live
		}
		for _, h := range hs[:g] {
			c, s := f.raiseAll(h, area)
			coll, self = coll+c, self+s
		}
		hs = hs[g:]
	}
	f.counts.add(area, n, coll, self)
}

// touch loads the word of every cell of every hash and returns them ORed.
func (f *Filter) touch(hs []uint64) uint32 {
	var acc uint32
	var ps [engine.MaxK]uint64
	for _, h := range hs {
		for _, q := range f.probes(h, &ps) {
			w, _ := f.locate(q)
			acc |= atomic.LoadUint32(w)
		}
	}
	return acc
}

// InsertHashes inserts every hash into area. Cells are raised by
// compare-and-swap one probe at a time (AVX2 has no scatter), after a
// pass of plain loads over each group of 16 keys' cells.
func (f *Filter) InsertHashes(hs []uint64, area int) error {
	if area < 1 || area > f.areas {
		return f.areaErr(area)
	}
	f.insertBatch(hs, uint32(area))
	runtime.KeepAlive(f.storage)
	return nil
}

// InsertKeys inserts every key into area.
func (f *Filter) InsertKeys(keys [][]byte, area int) error {
	if area < 1 || area > f.areas {
		return f.areaErr(area)
	}
	var buf [hashChunk]uint64
	for len(keys) > 0 {
		c := min(len(keys), hashChunk)
		for i, key := range keys[:c] {
			buf[i] = f.Hash(key)
		}
		f.insertBatch(buf[:c], uint32(area))
		keys = keys[c:]
	}
	runtime.KeepAlive(f.storage)
	return nil
}

// InsertUint64s inserts the 8 little-endian bytes of every key into area.
func (f *Filter) InsertUint64s(ks []uint64, area int) error {
	if area < 1 || area > f.areas {
		return f.areaErr(area)
	}
	var buf [hashChunk]uint64
	for len(ks) > 0 {
		c := min(len(ks), hashChunk)
		asm.HashUint64s(buf[:c], ks[:c], f.seed)
		f.insertBatch(buf[:c], uint32(area))
		ks = ks[c:]
	}
	runtime.KeepAlive(f.storage)
	return nil
}
