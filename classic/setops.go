package classic

import (
	"runtime"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/store"
)

func (f *Filter) compatible(g *Filter) error {
	if g == nil {
		return errs.ParamErrorf("classic: a nil *Filter to combine with")
	}
	if f.m != g.m || f.k != g.k || f.seed != g.seed {
		return errs.ParamErrorf("classic filters differ (m %d/%d, k %d/%d, seed %d/%d)", f.m, g.m, f.k, g.k, f.seed, g.seed)
	}
	return nil
}

// Union sets f to f ∪ g: afterwards f tests true for every key either
// tested true for. The filters must have equal m, k and seed.
func (f *Filter) Union(g *Filter) error {
	if err := f.compatible(g); err != nil {
		return err
	}
	w, v := f.words(), g.words()
	for i := range w {
		w[i] |= v[i]
	}
	runtime.KeepAlive(f.st)
	runtime.KeepAlive(g.st)
	return nil
}

// Intersect sets f to the bitwise AND of f and g. It tests true for every
// key added to both; its false-positive rate is at most that of either,
// but higher than a filter built from the intersection itself.
func (f *Filter) Intersect(g *Filter) error {
	if err := f.compatible(g); err != nil {
		return err
	}
	w, v := f.words(), g.words()
	for i := range w {
		w[i] &= v[i]
	}
	runtime.KeepAlive(f.st)
	runtime.KeepAlive(g.st)
	return nil
}

// Equal reports whether f and g have the same parameters and bits.
func (f *Filter) Equal(g *Filter) bool {
	if f.compatible(g) != nil {
		return false
	}
	w, v := f.words(), g.words()
	eq := len(w) == len(v)
	for i := 0; eq && i < len(w); i++ {
		eq = w[i] == v[i]
	}
	runtime.KeepAlive(f.st)
	runtime.KeepAlive(g.st)
	return eq
}

// Clone returns an independent copy of f (on the heap or huge pages by the
// same automatic rule as New; heap memory when huge pages are refused).
func (f *Filter) Clone() *Filter {
	w := f.words()
	st, err := store.NewStorage(wordsFor(f.m), engine.HugePagesAuto)
	if err != nil {
		panic(err) // memory refused: an error wrapping engine.ErrMemory
	}
	copy(st.Words(), w)
	runtime.KeepAlive(f.st)
	return &Filter{st: st, m: f.m, k: f.k, seed: f.seed}
}

// Reset clears every bit, keeping m, k and seed.
func (f *Filter) Reset() {
	clear(f.words())
	runtime.KeepAlive(f.st)
}
