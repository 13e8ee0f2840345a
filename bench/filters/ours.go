package filters

import (
	"math"

	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/classic"
	"github.com/filterengine/filterengine/counting"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/shifting"
)

// ours lists this library's families. Add and Test drive the batch calls:
// AddUint64s/TestUint64s for integer keys (hashing in batch on the
// kernels), AddKeys/TestKeys for byte keys; AddEach and TestEach the
// single-key Add(key)/Test(key).
func ours() []Entry {
	return []Entry{
		{
			Name:    "classic",
			Kind:    Ours,
			About:   "classic.New / NewMK: m bits, k probes by double hashing over the whole array; batch calls",
			Kernels: true,
			NewNP: func(n uint64, p float64) (Filter, error) {
				return wrapClassic(classic.New(n, p))
			},
			NewMK: func(m uint64, k uint32) (Filter, error) {
				return wrapClassic(classic.NewMK(m, k))
			},
		},
		{
			Name:    "blocked",
			Kind:    Ours,
			About:   "blocked.New / NewMK: one 64-byte line per key (m rounded up to whole lines); batch calls",
			Kernels: true,
			NewNP: func(n uint64, p float64) (Filter, error) {
				return wrapBlocked(blocked.New(n, p))
			},
			NewMK: func(m uint64, k uint32) (Filter, error) {
				return wrapBlocked(blocked.NewMK(m, k))
			},
		},
		{
			Name:    "shifting",
			Kind:    Ours,
			About:   "shifting.New / NewMK (ShBF_M): k/2 positions, each bit pair read with one unaligned load; batch calls",
			Kernels: true,
			NewNP: func(n uint64, p float64) (Filter, error) {
				return wrapShifting(shifting.New(n, p))
			},
			NewMK: func(m uint64, k uint32) (Filter, error) {
				return wrapShifting(shifting.NewMK(m, k))
			},
		},
		{
			Name:    "shifting+2nd",
			Kind:    Ours,
			About:   "shifting with WithSecondArray, the second-array variant the awesome-bloom-filters project proposes: a second m-bit array, one more bit per key (twice the memory at a given m); batch calls",
			Kernels: true,
			NewNP: func(n uint64, p float64) (Filter, error) {
				return wrapShifting(shifting.New(n, p, shifting.WithSecondArray()))
			},
			NewMK: func(m uint64, k uint32) (Filter, error) {
				return wrapShifting(shifting.NewMK(m, k, shifting.WithSecondArray()))
			},
		},
		{
			Name:    "counting",
			Kind:    Ours,
			About:   "counting.New / NewMK: 4-bit counters, 128 to a 64-byte line that holds all of a key's counters (ToBloom gives the blocked.Narrow twin); (m, k) means m counters (4m bits), as spatial's m cells; batch calls",
			Kernels: true,
			NewNP: func(n uint64, p float64) (Filter, error) {
				return wrapCounting(counting.New(n, p))
			},
			NewMK: func(m uint64, k uint32) (Filter, error) {
				return wrapCounting(counting.NewMK(m, k))
			},
		},
		spatialEntry(),
	}
}

func wrapBlocked(f *blocked.Filter, err error) (Filter, error) {
	if err != nil {
		return nil, err
	}
	return &batched[*blocked.Filter]{
		f: f, each: blockedEach(f), bytes: f.SizeBytes(), m: f.M(), k: f.K(),
		model: func(n uint64) float64 { return blocked.FPR(f.M(), n, f.K()) },
	}, nil
}

func wrapCounting(f *counting.Filter, err error) (Filter, error) {
	if err != nil {
		return nil, err
	}
	return &countingFilter{batched[*counting.Filter]{f: f, each: countingEach(f), bytes: f.M() * uint64(f.CounterBits()) / 8, m: f.M(), k: f.K(), model: f.ModelFPR}}, nil
}

// countingFilter adds Remove: RemoveUint64s for integer keys, Remove per
// key for byte keys (the family has no byte-key batch remove).
type countingFilter struct {
	batched[*counting.Filter]
}

func (a *countingFilter) Remove(b Batch) int {
	if b.Ints != nil {
		if cap(a.out) < b.Len() {
			a.out = make([]bool, b.Len())
		}
		return a.f.RemoveUint64s(b.Ints, a.out[:b.Len()])
	}
	n := 0
	for _, k := range b.Keys {
		if a.f.Remove(k) {
			n++
		}
	}
	return n
}

func wrapShifting(f *shifting.Filter, err error) (Filter, error) {
	if err != nil {
		return nil, err
	}
	return &batched[*shifting.Filter]{f: f, each: shiftingEach(f), bytes: f.SizeBytes(), m: f.M(), k: f.K(), model: f.ModelFPR}, nil
}

func wrapClassic(f *classic.Filter, err error) (Filter, error) {
	if err != nil {
		return nil, err
	}
	return &batched[*classic.Filter]{
		f:     f,
		each:  classicEach(f),
		bytes: f.SizeBytes(),
		m:     f.M(),
		k:     f.K(),
		model: func(n uint64) float64 { return engine.FPR(f.M(), n, f.K()) },
	}, nil
}

// batchFilter is the batch surface every membership family shares.
type batchFilter interface {
	AddKeys(keys [][]byte)
	TestKeys(keys [][]byte, out []bool) int
	AddUint64s(ks []uint64)
	TestUint64s(ks []uint64, out []bool) int
	Reset()
}

// batched adapts a family's batch calls, and its single-key loops in
// each (see each.go); out is scratch for the answers.
type batched[F batchFilter] struct {
	f     F
	each  eachCalls
	bytes uint64
	m     uint64
	k     uint32
	model func(n uint64) float64
	out   []bool
}

func (a *batched[F]) Add(b Batch) {
	if b.Ints != nil {
		a.f.AddUint64s(b.Ints)
		return
	}
	a.f.AddKeys(b.Keys)
}

func (a *batched[F]) Test(b Batch) int {
	if cap(a.out) < b.Len() {
		a.out = make([]bool, b.Len())
	}
	out := a.out[:b.Len()]
	if b.Ints != nil {
		return a.f.TestUint64s(b.Ints, out)
	}
	return a.f.TestKeys(b.Keys, out)
}

func (a *batched[F]) AddEach(b Batch) { a.each.add(b.Keys) }

func (a *batched[F]) TestEach(b Batch) int { return a.each.test(b.Keys) }

// Reset empties the filter in place (Resetter).
func (a *batched[F]) Reset() { a.f.Reset() }

func (a *batched[F]) Bytes() uint64            { return a.bytes }
func (a *batched[F]) Params() (uint64, uint32) { return a.m, a.k }

// ModelFPR is the family's own prediction; families without one return
// NaN through a nil model.
func (a *batched[F]) ModelFPR(n uint64) float64 {
	if a.model == nil {
		return math.NaN()
	}
	return a.model(n)
}
