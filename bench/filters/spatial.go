package filters

import (
	"fmt"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/spatial"
)

// spatialAreas is the number of areas the bench spreads keys over: batch
// i goes to area 1 + i mod spatialAreas. Membership (Check != 0) does not
// depend on the labels: a cell is non-zero exactly where a classic filter
// of m bits has a bit set, so the classic model applies.
const spatialAreas = 4

func spatialEntry() Entry {
	return Entry{
		Name:    "spatial",
		Kind:    Ours,
		About:   fmt.Sprintf("spatial.New / NewMK with %d areas (batches assigned in turn; member = Check != 0), 4-bit cells (the width for up to 15 areas); batch calls", spatialAreas),
		Kernels: true,
		NewNP: func(n uint64, p float64) (Filter, error) {
			return wrapSpatial(spatial.New(n, spatialAreas, p))
		},
		NewMK: func(m uint64, k uint32) (Filter, error) {
			return wrapSpatial(spatial.NewMK(m, k, spatialAreas))
		},
	}
}

func wrapSpatial(f *spatial.Filter, err error) (Filter, error) {
	if err != nil {
		return nil, err
	}
	return &spatialFilter{f: f}, nil
}

type spatialFilter struct {
	f       *spatial.Filter
	batches int
	out     []uint16
}

func (a *spatialFilter) Add(b Batch) {
	area := 1 + a.batches%spatialAreas
	a.batches++
	var err error
	if b.Ints != nil {
		err = a.f.InsertUint64s(b.Ints, area)
	} else {
		err = a.f.InsertKeys(b.Keys, area)
	}
	if err != nil {
		panic(fmt.Sprintf("filters: spatial insert into area %d: %v", area, err))
	}
}

func (a *spatialFilter) Test(b Batch) int {
	if cap(a.out) < b.Len() {
		a.out = make([]uint16, b.Len())
	}
	out := a.out[:b.Len()]
	if b.Ints != nil {
		return a.f.CheckUint64s(b.Ints, out)
	}
	return a.f.CheckKeys(b.Keys, out)
}

// AddEach inserts key by key into the area Add would use for this batch.
func (a *spatialFilter) AddEach(b Batch) {
	area := 1 + a.batches%spatialAreas
	a.batches++
	for _, k := range b.Keys {
		if err := a.f.Insert(k, area); err != nil {
			panic(fmt.Sprintf("filters: spatial insert into area %d: %v", area, err))
		}
	}
}

// TestEach counts the keys whose Check is not 0, key by key.
func (a *spatialFilter) TestEach(b Batch) int {
	hits := 0
	for _, k := range b.Keys {
		if a.f.Check(k) != 0 {
			hits++
		}
	}
	return hits
}

func (a *spatialFilter) Bytes() uint64            { return (a.f.M()*uint64(a.f.CellBits()) + 7) / 8 }
func (a *spatialFilter) Params() (uint64, uint32) { return a.f.M(), a.f.K() }

func (a *spatialFilter) ModelFPR(n uint64) float64 {
	return engine.FPR(a.f.M(), n, a.f.K())
}
