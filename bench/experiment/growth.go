package experiment

import (
	"encoding/binary"
	"fmt"

	boom "github.com/tylertreat/BoomFilters"

	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/engine"
)

// Experiment s: filters that grow and age. blocked.Scalable
// after GrowthN keys into NewScalable(1e3, 1%) (and, to show the cost of
// stages, NewScalable(min(1e6, GrowthN/10), 1%)) beside one blocked filter
// built for GrowthN keys and BoomFilters' ScalableBloomFilter(GrowthN,
// 1%, r = 0.8); blocked.Window of 4 generations of GrowthN/10 keys and of
// GrowthN keys (filled) beside one blocked filter of a generation's keys. Every filter is
// tested on the same SizedProbes queries, half members and half never
// added, in batches (ours, labelled batch) and one key per call (per key).

// GrowthRow is one filter and call form of experiment s.
type GrowthRow struct {
	Group  string // GrowthScalable or GrowthWindow
	Filter string
	Mode   string // GrowthBatch or GrowthPerKey
	N      uint64 // keys added
	// Generation is the window group's keys per generation, for its
	// window and its single filter of that many keys; 0 in the scalable
	// group.
	Generation uint64
	Parts      int // stages or generations; 1 for a single filter
	Bytes      uint64
	// Queried keys, half members; Ns the median ns/key over the
	// repetitions.
	Queried        int
	Ns             float64
	FalseNegatives int
	// FPR on the non-member half, and the filter's model for it.
	FPR, ModelFPR float64
}

// Names of experiment s's groups, call forms and baselines.
const (
	GrowthScalable = "scalable"
	GrowthWindow   = "window"
	GrowthBatch    = "batch"
	GrowthPerKey   = "per key"
	GrowthSingle   = "blocked.New (one filter)"
	GrowthBoom     = "boom/scalable"
)

// growthKeys is one group's members and mixed queries.
type growthKeys struct {
	members []uint64
	queries []uint64 // even: members, odd: non-members
	bytes   [][]byte // queries as 8 little-endian bytes
}

func newGrowthKeys(n uint64, queries int) growthKeys {
	g := growthKeys{members: make([]uint64, n), queries: make([]uint64, queries), bytes: make([][]byte, queries)}
	for i := range g.members {
		g.members[i] = uint64(i)
	}
	arena := make([]byte, 8*queries)
	for i := range g.queries {
		k := absentFirst + uint64(i)
		if i%2 == 0 {
			k = (uint64(i) * 0x9e3779b97f4a7c15 >> 1) % n // a member, spread over the whole set
		}
		g.queries[i] = k
		g.bytes[i] = binary.LittleEndian.AppendUint64(arena[8*i:8*i], k)
	}
	return g
}

// growthFilter is one filter under test, with its two call forms (batch
// nil for peers).
type growthFilter struct {
	name   string
	parts  int
	bytes  uint64
	model  float64
	batch  func(ks []uint64, out []bool) int
	perKey func(i int) bool // query i
}

// runGrowth is experiment s.
func runGrowth(d *driver, c *Config, r *Results) error {
	n := c.GrowthN
	if n < 10 {
		r.note("s: skipped, it needs GrowthN >= 10 keys")
		return nil
	}
	wn := n / 10
	q := c.SizedProbes &^ 1
	total := float64(c.Reps) * float64(q) * 15 // timed rows: 7 scalable, 4 per window size
	c.Progress.Phase(fmt.Sprintf("s: growing and aging filters, n = %d, %d queries, %d reps", n, q, c.Reps), total+float64(n)*2)

	keys := newGrowthKeys(n, q)
	d.what = "s: building"
	s, err := blocked.NewScalable(1e3, 0.01)
	if err != nil {
		return err
	}
	s.AddUint64s(keys.members)
	s6, err := blocked.NewScalable(min(1e6, n/10), 0.01)
	if err != nil {
		return err
	}
	s6.AddUint64s(keys.members)
	one, err := blocked.New(n, 0.01)
	if err != nil {
		return err
	}
	one.AddUint64s(keys.members)
	bf := boom.NewScalableBloomFilter(uint(n), 0.01, 0.8)
	for i := range keys.members {
		if i%(1<<16) == 0 {
			if err := d.ctx.Err(); err != nil {
				return err
			}
			c.Progress.Advance(1<<16, d.what)
		}
		bf.Add(binary.LittleEndian.AppendUint64(nil, keys.members[i]))
	}
	scalable := []growthFilter{
		{name: "blocked.Scalable(1e3, 1%)", parts: s.Stages(), bytes: s.SizeBytes(), model: s.ModelFPR(n),
			batch: s.TestUint64s, perKey: func(i int) bool { return s.TestUint64(keys.queries[i]) }},
		{name: fmt.Sprintf("blocked.Scalable(%d, 1%%)", min(1e6, n/10)), parts: s6.Stages(), bytes: s6.SizeBytes(), model: s6.ModelFPR(n),
			batch: s6.TestUint64s, perKey: func(i int) bool { return s6.TestUint64(keys.queries[i]) }},
		{name: GrowthSingle, parts: 1, bytes: one.SizeBytes(), model: blocked.FPR(one.M(), n, one.K()),
			batch:  one.TestUint64s,
			perKey: func(i int) bool { return one.TestHash(engine.HashUint64(keys.queries[i])) }},
		{name: GrowthBoom, parts: 0, bytes: uint64(bf.Capacity()) / 8, model: 0.01,
			perKey: func(i int) bool { return bf.Test(keys.bytes[i]) }},
	}
	if err := growthRows(d, c, r, GrowthScalable, n, 0, keys, scalable); err != nil {
		return err
	}

	// The window at two generation sizes: n/10, where one blocked filter
	// of a generation's keys fits in the L2 cache and the window (four
	// times its size) does not, and n, where neither does.
	for _, wn := range []uint64{wn, n} {
		if err := windowRows(d, c, r, wn, q); err != nil {
			return err
		}
	}
	return nil
}

// windowRows measures blocked.Window(wn, 1%, 4) filled beside one blocked
// filter of wn keys, on q queries each.
func windowRows(d *driver, c *Config, r *Results, wn uint64, q int) error {
	d.what = fmt.Sprintf("s: building the window of %d-key generations", wn)
	wkeys := newGrowthKeys(4*wn, q)
	w, err := blocked.NewWindow(wn, 0.01, 4)
	if err != nil {
		return err
	}
	w.AddUint64s(wkeys.members)
	single, err := blocked.New(wn, 0.01)
	if err != nil {
		return err
	}
	single.AddUint64s(wkeys.members[:wn])
	// The single filter holds only the first generation's keys: its
	// member queries are drawn from them.
	skeys := newGrowthKeys(wn, q)
	window := []growthFilter{
		{name: "blocked.Window(n, 1%, 4)", parts: w.Generations(), bytes: w.SizeBytes(), model: w.ModelFPR(wn),
			batch: w.TestUint64s, perKey: func(i int) bool { return w.TestUint64(wkeys.queries[i]) }},
	}
	if err := growthRows(d, c, r, GrowthWindow, 4*wn, wn, wkeys, window); err != nil {
		return err
	}
	return growthRows(d, c, r, GrowthWindow, wn, wn, skeys, []growthFilter{
		{name: GrowthSingle, parts: 1, bytes: single.SizeBytes(), model: blocked.FPR(single.M(), wn, single.K()),
			batch:  single.TestUint64s,
			perKey: func(i int) bool { return single.TestHash(engine.HashUint64(skeys.queries[i])) }},
	})
}

// growthRows times every filter's call forms on keys.queries; gen is the
// rows' Generation.
func growthRows(d *driver, c *Config, r *Results, group string, n, gen uint64, keys growthKeys, fs []growthFilter) error {
	out := make([]bool, len(keys.queries))
	for _, f := range fs {
		for _, mode := range []string{GrowthBatch, GrowthPerKey} {
			if mode == GrowthBatch && f.batch == nil {
				continue
			}
			call := func(i, j int) int { return f.batch(keys.queries[i:j], out[i:j]) }
			if mode == GrowthPerKey {
				call = func(i, j int) int {
					for k := i; k < j; k++ {
						out[k] = f.perKey(k)
					}
					return 0
				}
			}
			var ns []float64
			for rep := range c.Reps {
				d.what = fmt.Sprintf("s: %s %s rep %d/%d", f.name, mode, rep+1, c.Reps)
				_, spent, err := d.span(len(keys.queries), call)
				if err != nil {
					return err
				}
				ns = append(ns, nsPerKey(spent, len(keys.queries)))
			}
			fn, fp := 0, 0
			for i, hit := range out {
				if i%2 == 0 && !hit {
					fn++
				}
				if i%2 == 1 && hit {
					fp++
				}
			}
			r.Growth = append(r.Growth, GrowthRow{Group: group, Filter: f.name, Mode: mode, N: n, Generation: gen, Parts: f.parts, Bytes: f.bytes,
				Queried: len(keys.queries), Ns: median(ns), FalseNegatives: fn, FPR: rate(fp, len(out)/2), ModelFPR: f.model})
		}
	}
	return nil
}
