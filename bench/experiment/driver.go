package experiment

import (
	"context"
	"slices"
	"time"

	"github.com/filterengine/filterengine/bench/dataset"
	"github.com/filterengine/filterengine/bench/filters"
	"github.com/filterengine/filterengine/bench/progress"
)

// driver hands keys to filters in batches, timing only the filter calls
// and stopping between batches when the context is cancelled.
type driver struct {
	ctx   context.Context
	batch int
	prog  *progress.Reporter
	what  string
	views [][]byte
	// each makes add and test call the filters' single-key forms
	// (AddEach/TestEach) instead of their batch calls.
	each bool
}

func (d *driver) batchOf(keys *dataset.Keys, i, j int) filters.Batch {
	d.views = keys.Views(d.views, i, j)
	return filters.Batch{Keys: d.views, Ints: keys.Uint64s(i, j)}
}

// add inserts keys [from, to).
// prefault fills f with keys[from:to] untimed and empties it again when
// it can be emptied in place (filters.Resetter), so that a timed Add into
// it pays no first-touch page faults. A filter that cannot be reset stays
// as it is: its timed Add faults its pages in.
func (d *driver) prefault(f filters.Filter, keys *dataset.Keys, from, to int) {
	r, ok := f.(filters.Resetter)
	if !ok {
		return
	}
	for i := from; i < to; i += d.batch {
		f.Add(d.batchOf(keys, i, min(i+d.batch, to)))
	}
	r.Reset()
}

func (d *driver) add(f filters.Filter, keys *dataset.Keys, from, to int) (time.Duration, error) {
	var spent time.Duration
	for i := from; i < to; i += d.batch {
		if err := d.ctx.Err(); err != nil {
			return spent, err
		}
		j := min(i+d.batch, to)
		b := d.batchOf(keys, i, j)
		t0 := time.Now()
		if d.each {
			f.AddEach(b)
		} else {
			f.Add(b)
		}
		spent += time.Since(t0)
		d.prog.Advance(float64(j-i), d.what)
	}
	return spent, nil
}

// test tests keys [from, to) and returns how many tested present.
func (d *driver) test(f filters.Filter, keys *dataset.Keys, from, to int) (int, time.Duration, error) {
	var spent time.Duration
	hits := 0
	for i := from; i < to; i += d.batch {
		if err := d.ctx.Err(); err != nil {
			return hits, spent, err
		}
		j := min(i+d.batch, to)
		b := d.batchOf(keys, i, j)
		t0 := time.Now()
		if d.each {
			hits += f.TestEach(b)
		} else {
			hits += f.Test(b)
		}
		spent += time.Since(t0)
		d.prog.Advance(float64(j-i), d.what)
	}
	return hits, spent, nil
}

// remove removes keys [from, to) and returns how many were removed.
func (d *driver) remove(f filters.Remover, keys *dataset.Keys, from, to int) (int, time.Duration, error) {
	var spent time.Duration
	removed := 0
	for i := from; i < to; i += d.batch {
		if err := d.ctx.Err(); err != nil {
			return removed, spent, err
		}
		j := min(i+d.batch, to)
		b := d.batchOf(keys, i, j)
		t0 := time.Now()
		removed += f.Remove(b)
		spent += time.Since(t0)
		d.prog.Advance(float64(j-i), d.what)
	}
	return removed, spent, nil
}

// span calls f over [0, n) in batches of d.batch keys, f getting each
// batch's bounds [i, j) and returning its hits, and stops between batches
// when the context is cancelled. Only f is timed: whatever it must not
// time (a batch's views, checksums) belongs outside it.
func (d *driver) span(n int, f func(i, j int) int) (int, time.Duration, error) {
	var spent time.Duration
	hits := 0
	for i := 0; i < n; i += d.batch {
		if err := d.ctx.Err(); err != nil {
			return hits, spent, err
		}
		j := min(i+d.batch, n)
		t0 := time.Now()
		hits += f(i, j)
		spent += time.Since(t0)
		d.prog.Advance(float64(j-i), d.what)
	}
	return hits, spent, nil
}

// build constructs a static filter from every key, timing the build.
func (d *driver) build(e filters.Entry, keys *dataset.Keys) (filters.Filter, time.Duration, error) {
	b := filters.Batch{Ints: keys.Uint64s(0, keys.Len())}
	if b.Ints == nil {
		b.Keys = keys.Views(nil, 0, keys.Len())
	}
	t0 := time.Now()
	f, err := e.Build(b)
	spent := time.Since(t0)
	d.prog.Advance(float64(keys.Len()), d.what)
	return f, spent, err
}

func nsPerKey(d time.Duration, keys int) float64 {
	if keys == 0 {
		return 0
	}
	return float64(d.Nanoseconds()) / float64(keys)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func rate(hits, trials int) float64 {
	if trials == 0 {
		return 0
	}
	return float64(hits) / float64(trials)
}
