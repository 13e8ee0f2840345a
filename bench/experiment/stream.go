package experiment

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/filterengine/filterengine/bench/dataset"
	"github.com/filterengine/filterengine/bench/filters"
	"github.com/filterengine/filterengine/engine"
)

// streamable lists the entries with an (m, k) form and notes the others.
func streamable(c *Config, r *Results, exp string) []filters.Entry {
	var out []filters.Entry
	for _, e := range c.Entries {
		if e.NewMK == nil {
			r.note(fmt.Sprintf("%s: %s left out: it has no fixed (m, k) form", exp, e.Name))
			continue
		}
		out = append(out, e)
	}
	return out
}

func modelFPR(f filters.Filter, distinct int) float64 {
	if m, ok := f.(filters.Modeled); ok {
		return m.ModelFPR(uint64(distinct))
	}
	return math.NaN()
}

// runStream is experiment a: each data set streamed into each filter of
// StreamBits bits and K probes, tested at Checkpoints evenly spaced
// points on Probes never-inserted values.
func runStream(d *driver, c *Config, r *Results, data dataSets) error {
	entries := streamable(c, r, "a")
	m := c.StreamBits()
	cps := checkpoints(c.Rows, c.Checkpoints)
	total := float64(len(c.Dists)*len(entries)) * float64(c.Rows+len(cps)*c.Probes)
	c.Progress.Phase(fmt.Sprintf("a: seed configuration, %d rows, m = %d bits, k = %d", c.Rows, m, c.K), total)
	for _, dist := range c.Dists {
		keys, absent, err := data.get(dist, c.Rows)
		if err != nil {
			return err
		}
		distinct := keys.DistinctCounts(cps)
		for _, e := range entries {
			d.what = fmt.Sprintf("%s into %s", dist, e.Name)
			f, err := e.NewMK(m, c.K)
			if err != nil {
				return fmt.Errorf("a: %s NewMK(%d, %d): %w", e.Name, m, c.K, err)
			}
			fm, fk := f.Params()
			var added float64
			prev := 0
			for ci, cp := range cps {
				spent, err := d.add(f, keys, prev, cp)
				added += spent.Seconds()
				if err != nil {
					return err
				}
				prev = cp
				hits, tspent, err := d.test(f, absent, 0, c.Probes)
				if err != nil {
					return err
				}
				r.Stream = append(r.Stream, StreamPoint{
					Dist: dist.String(), Filter: e.Name, M: fm, K: fk,
					Rows: cp, Distinct: distinct[ci],
					Tested: c.Probes, FalsePositives: hits, FPR: rate(hits, c.Probes),
					ModelFPR:     modelFPR(f, distinct[ci]),
					AddSeconds:   added,
					TestNsPerKey: nsPerKey(tspent, c.Probes),
				})
			}
		}
	}
	return nil
}

// runKSweep is experiment b: the first KRows rows of each data set into
// filters of KBits bits for every k in KMin..KMax.
func runKSweep(d *driver, c *Config, r *Results, data dataSets) error {
	entries := streamable(c, r, "b")
	m := c.KBits()
	ks := int(c.KMax - c.KMin + 1)
	total := float64(len(c.Dists)*len(entries)*ks) * float64(c.KRows+c.Probes)
	type skip struct {
		ks     []uint32
		reason error
	}
	skipped, order := map[string]*skip{}, []string(nil)
	defer func() {
		for _, name := range order {
			r.note(fmt.Sprintf("b: %s rejects k = %v: %v", name, skipped[name].ks, skipped[name].reason))
		}
	}()
	c.Progress.Phase(fmt.Sprintf("b: k = %d..%d, %d rows, m = %d bits", c.KMin, c.KMax, c.KRows, m), total)
	for _, dist := range c.Dists {
		keys, absent, err := data.get(dist, c.KRows)
		if err != nil {
			return err
		}
		distinct := keys.DistinctCounts([]int{c.KRows})[0]
		for k := c.KMin; k <= c.KMax; k++ {
			for _, e := range entries {
				d.what = fmt.Sprintf("%s into %s, k = %d", dist, e.Name, k)
				f, err := e.NewMK(m, k)
				if errors.Is(err, engine.ErrParam) {
					if skipped[e.Name] == nil {
						skipped[e.Name] = &skip{reason: err}
						order = append(order, e.Name)
					}
					skipped[e.Name].ks = appendUnique(skipped[e.Name].ks, k)
					c.Progress.Advance(float64(c.KRows+c.Probes), d.what)
					continue
				}
				if err != nil {
					return fmt.Errorf("b: %s NewMK(%d, %d): %w", e.Name, m, k, err)
				}
				spent, err := d.add(f, keys, 0, c.KRows)
				if err != nil {
					return err
				}
				hits, tspent, err := d.test(f, absent, 0, c.Probes)
				if err != nil {
					return err
				}
				fm, fk := f.Params()
				r.KSweep = append(r.KSweep, StreamPoint{
					Dist: dist.String(), Filter: e.Name, M: fm, K: fk,
					Rows: c.KRows, Distinct: distinct,
					Tested: c.Probes, FalsePositives: hits, FPR: rate(hits, c.Probes),
					ModelFPR:     modelFPR(f, distinct),
					AddSeconds:   spent.Seconds(),
					TestNsPerKey: nsPerKey(tspent, c.Probes),
				})
			}
		}
	}
	return nil
}

// checkpoints returns n evenly spaced row counts ending at rows.
func checkpoints(rows, n int) []int {
	n = max(1, min(n, rows))
	out := make([]int, 0, n)
	for i := 1; i <= n; i++ {
		out = append(out, rows*i/n)
	}
	return out
}

// dataSets generates each data set once, at the largest size asked, and
// serves prefixes of it.
type dataSets struct {
	format dataset.Format
	probes int
	keys   map[dataset.Distribution]*dataset.Keys
	absent map[dataset.Distribution]*dataset.Keys
}

func newDataSets(f dataset.Format, probes int) dataSets {
	return dataSets{format: f, probes: probes,
		keys:   map[dataset.Distribution]*dataset.Keys{},
		absent: map[dataset.Distribution]*dataset.Keys{}}
}

func (s dataSets) get(d dataset.Distribution, rows int) (*dataset.Keys, *dataset.Keys, error) {
	if k := s.keys[d]; k == nil || k.Len() < rows {
		k, err := dataset.Generate(d, rows, s.format, dataset.SeedRNG)
		if err != nil {
			return nil, nil, err
		}
		s.keys[d] = k
	}
	if s.absent[d] == nil {
		a, err := dataset.Absent(d, s.probes, s.format)
		if err != nil {
			return nil, nil, err
		}
		s.absent[d] = a
	}
	return s.keys[d], s.absent[d], nil
}

func appendUnique(ks []uint32, k uint32) []uint32 {
	if slices.Contains(ks, k) {
		return ks
	}
	return append(ks, k)
}
