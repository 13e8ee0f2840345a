package experiment

import (
	"context"
	"errors"
)

// Run runs the configured experiments in order. When ctx is cancelled it
// stops between batches and returns what was measured so far with
// Interrupted set and a nil error.
func Run(ctx context.Context, c Config) (*Results, error) {
	if c.Batch <= 0 {
		c.Batch = 4096
	}
	c.Reps = max(c.Reps, 1)
	r := &Results{}
	d := &driver{ctx: ctx, batch: c.Batch, prog: c.Progress}
	data := newDataSets(c.Format, c.Probes)
	steps := []struct {
		name string
		run  func() error
	}{
		{"a", func() error { return runStream(d, &c, r, data) }},
		{"b", func() error { return runKSweep(d, &c, r, data) }},
		{"c", func() error { return runSized(d, &c, r) }},
		{"d", func() error { return runKernels(d, &c, r) }},
		{"f", func() error { return runSets(d, &c, r) }},
		{"r", func() error { return runRetouched(d, &c, r) }},
		{"s", func() error { return runGrowth(d, &c, r) }},
		{"g", func() error {
			if err := runFormatsParquet(d, &c, r); err != nil {
				return err
			}
			if err := runFormatsKV(d, &c, r); err != nil {
				return err
			}
			return runFormatsClickHouse(d, &c, r)
		}},
		{"n", func() error { return runCache(d, &c, r) }},
		{"t", func() error { return runThreads(d, &c, r) }},
	}
	for _, s := range steps {
		if !c.Experiments[s.name] {
			continue
		}
		if err := s.run(); err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				r.Interrupted = true
				c.Progress.Note("   stopped: %v", err)
				return r, nil
			}
			return r, err
		}
		c.Progress.Done()
	}
	return r, nil
}
