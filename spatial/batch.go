package spatial

import (
	"runtime"
	"sync/atomic"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/batch"
)

// CheckHashes sets out[i] = CheckHash(hs[i]) and returns how many keys
// are in some area (out[i] != 0); out must be at least as long as hs. It
// runs the gather-and-minimum kernel of asm.SpatialCheckHashes (the
// line-local layout: asm.SpatialLineCheckHashes, one Go loop at every
// kernel level).
func (f *Filter) CheckHashes(hs []uint64, out []uint16) int {
	out = batch.Out("spatial", out, len(hs))
	f.mustHaveCells()
	var hits int
	if f.p.Lines != 0 {
		hits = asm.SpatialLineCheckHashes(f.cells, f.p.Lines, f.p.K, f.p.CellLog, hs, out)
	} else {
		hits = asm.SpatialCheckHashes(f.cells, f.p.M, f.p.K, f.p.CellLog, hs, out)
	}
	runtime.KeepAlive(f.storage)
	return hits
}

// CheckKeys is CheckHashes for keys hashed with Hash.
func (f *Filter) CheckKeys(keys [][]byte, out []uint16) int {
	return batch.TestKeys(f.CheckHashes, keys, f.p.Seed, batch.Out("spatial", out, len(keys)))
}

// CheckUint64s answers Check for the 8 little-endian bytes of each key,
// hashing them in batch with asm.HashUint64s.
func (f *Filter) CheckUint64s(ks []uint64, out []uint16) int {
	return batch.TestUint64s(f.CheckHashes, ks, f.p.Seed, batch.Out("spatial", out, len(ks)))
}

// prefetchDist is how many keys' cells a batch insert requests ahead of
// their compare-and-swaps, the distance the kernels name dist. Go has no
// prefetch instruction and a locked CAS waits for every earlier load, so
// a CAS loop cannot request one key dist places ahead as the kernels do
// without stalling on it: it loads the cells of the next dist keys
// first, letting their misses overlap, then raises them.
const prefetchDist = 16

// insertBatch raises the cells of every hash to area, prefetchDist keys
// at a time after loading their cells, and adds the batch to the
// statistics once: with many goroutines inserting, per-key updates of the
// shared counters would bounce their cache lines.
func (f *Filter) insertBatch(hs []uint64, area uint32) {
	var coll, self uint64
	n := uint64(len(hs))
	for len(hs) > 0 {
		g := min(len(hs), prefetchDist)
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
	runtime.KeepAlive(f.storage)
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
// pass of plain loads over each group of prefetchDist keys' cells.
func (f *Filter) InsertHashes(hs []uint64, area int) error {
	if err := f.checkArea(area); err != nil {
		return err
	}
	f.insertBatch(hs, uint32(area))
	return nil
}

// InsertKeys inserts every key into area.
func (f *Filter) InsertKeys(keys [][]byte, area int) error {
	if err := f.checkArea(area); err != nil {
		return err
	}
	batch.AddKeys(func(hs []uint64) { f.insertBatch(hs, uint32(area)) }, keys, f.p.Seed)
	return nil
}

// InsertUint64s inserts the 8 little-endian bytes of every key into area.
func (f *Filter) InsertUint64s(ks []uint64, area int) error {
	if err := f.checkArea(area); err != nil {
		return err
	}
	batch.AddUint64s(func(hs []uint64) { f.insertBatch(hs, uint32(area)) }, ks, f.p.Seed)
	return nil
}
