package spatial

import (
	"runtime"
	"sync/atomic"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/errs"
)

// Union raises every cell of f to max(f, other): the filter of the union
// of both key sets, as if every key had been inserted into f. Both must
// have the same cells, probes, areas, seed and layout. Member and collision
// counts add up; self-collisions add up too, so a key set inserted into
// both counts twice there (see AreaStats.SelfCollisions). Concurrent
// inserts into f stay correct; other must not change during the union.
func (f *Filter) Union(other *Filter) error {
	f.mustHaveCells()
	other.mustHaveCells()
	if f.p.M != other.p.M || f.p.K != other.p.K || f.areas != other.areas || f.p.Seed != other.p.Seed || f.p.Lines != other.p.Lines {
		return errs.ParamErrorf("union of spatial filters of (m, k, areas, seed, line-local) = (%d, %d, %d, %d, %v) and (%d, %d, %d, %d, %v)", f.p.M, f.p.K, f.areas, f.p.Seed, f.LineLocal(), other.p.M, other.p.K, other.areas, other.p.Seed, other.LineLocal())
	}
	for p := range f.p.M {
		if v := other.cell(p); v != 0 {
			w, _ := f.locate(p)
			f.raise(p, v, atomic.LoadUint32(w))
		}
	}
	f.counts.addAll(other.counts)
	runtime.KeepAlive(f.storage)
	runtime.KeepAlive(other.storage)
	return nil
}

// Clone returns a copy of the filter, its cells and statistics, in
// huge-page memory if the filter's is (plain memory if none is left).
// Inserts may run meanwhile: each cell word is read atomically.
func (f *Filter) Clone() *Filter {
	f.mustHaveCells()
	mode := engine.HugePagesNever
	if f.HugePages() {
		mode = engine.HugePagesAlways
	}
	g, err := newFilter(f.p.M, f.p.K, f.areas, f.p.CellLog, f.p.Lines, f.p.Seed, mode)
	if err != nil {
		if g, err = newFilter(f.p.M, f.p.K, f.areas, f.p.CellLog, f.p.Lines, f.p.Seed, engine.HugePagesNever); err != nil {
			panic(err) // memory refused: an error wrapping engine.ErrMemory
		}
	}
	for i := range g.p.Words {
		g.p.Words[i] = atomic.LoadUint32(&f.p.Words[i])
	}
	g.counts.addAll(f.counts)
	runtime.KeepAlive(f.storage)
	return g
}
