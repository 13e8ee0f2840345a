package spatial

import (
	"fmt"
	"runtime"

	"github.com/filterengine/filterengine/engine"
)

// Merge raises every cell of f to max(f, other): the filter of the union
// of both key sets, as if every key had been inserted into f. Both must
// have the same cells, probes, areas and seed. Member and collision
// counts add up; self-collisions add up too, so a key set inserted into
// both counts twice there (see AreaStats.SelfCollisions). Concurrent
// inserts into f stay correct; other must not change during the merge.
func (f *Filter) Merge(other *Filter) error {
	if f.m != other.m || f.k != other.k || f.areas != other.areas || f.seed != other.seed {
		return fmt.Errorf("%w: merging spatial filters of (m, k, areas, seed) = (%d, %d, %d, %d) and (%d, %d, %d, %d)",
			engine.ErrParam, f.m, f.k, f.areas, f.seed, other.m, other.k, other.areas, other.seed)
	}
	for p := range f.m {
		if v := other.cell(p); v != 0 {
			f.raise(p, v)
		}
	}
	for a := 1; a <= f.areas; a++ {
		f.members[a].Add(other.members[a].Load())
		f.selfCollisions[a].Add(other.selfCollisions[a].Load())
	}
	f.collisions.Add(other.collisions.Load())
	runtime.KeepAlive(f.storage)
	runtime.KeepAlive(other.storage)
	return nil
}
