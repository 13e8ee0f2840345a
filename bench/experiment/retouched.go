package experiment

import (
	"fmt"
	"time"

	"github.com/filterengine/filterengine/bench/dataset"
	"github.com/filterengine/filterengine/classic"
	"github.com/filterengine/filterengine/engine"
)

// Experiment r: classic's growing and forgetting filters.
//
// Retouched: a classic.Retouched filter of RetouchedN keys at p = 1%;
// the first RetouchedFPs never-added keys that test present are recorded
// as false positives and each is then cleared with SelectiveClearing,
// under every scheme on a clone of the same filter. The table and plot
// set the false positives removed against the false negatives introduced
// (Donnet, Baynat & Friedman 2006, figure 5's axes).
//
// Dynamic: a classic.Dynamic of DynamicRows rows of DynamicNR keys at
// p = 1%, its batch TestUint64s (hashed once, every row probed together)
// against the same keys' batch TestUint64s on each row in turn.
const (
	RetouchedN   = 100_000
	RetouchedP   = 0.01
	RetouchedFPs = 10_000
	DynamicNR    = 100_000
	DynamicRows  = 10
	DynamicP     = 0.01
)

// RetouchedRow is one clearing scheme of experiment r.
type RetouchedRow struct {
	Scheme string
	N      uint64
	P      float64
	M      uint64
	K      uint32
	// Recorded false positives, all cleared; Cleared the SelectiveClearing
	// calls that reset a bit (the others had gone with an earlier bit).
	Recorded, Cleared int
	// RemovedFPs are the recorded false positives that test absent at the
	// end (all of them); FalseNegatives the added keys that test absent,
	// from FalseNegatives(), and FNCheck the same count by testing every
	// added key.
	RemovedFPs, FalseNegatives uint64
	FNCheck                    int
	// FPR on Tested other never-added keys before and after the clearing.
	Tested              int
	FPRBefore, FPRAfter float64
	// ClearNs is the time per SelectiveClearing, the index build included.
	ClearNs float64
	// Curve follows the clearing: after every RetouchedFPs/20 calls, the
	// false positives removed and false negatives introduced so far.
	Curve []TradePoint
}

// TradePoint is one point of a scheme's trade-off curve.
type TradePoint struct{ RemovedFPs, FalseNegatives uint64 }

// DynamicRow is one key class of experiment r's Dynamic comparison.
type DynamicRow struct {
	Keys string // KeysMembers or KeysAbsent
	Rows int
	NR   uint64
	P    float64
	// Median ns/key of Dynamic.TestUint64s and of TestUint64s on each row
	// in turn (Rows calls per batch), and Ratio = DynamicNs / RowsNs.
	DynamicNs, RowsNs, Ratio float64
	Hits                     int
	FPR, ModelFPR            float64 // absent keys only
}

func runRetouched(d *driver, c *Config, r *Results) error {
	probes := c.SizedProbes
	c.Progress.Phase(fmt.Sprintf("r: Retouched clearing schemes (n = %d, %d false positives) and Dynamic (%d rows of %d), %d reps",
		RetouchedN, RetouchedFPs, DynamicRows, DynamicNR, c.Reps),
		float64(len(classic.Clearings)*(RetouchedFPs+2*probes)+(2*c.Reps*2)*probes))
	if err := retouchedRows(d, c, r, probes); err != nil {
		return err
	}
	return dynamicRows(d, c, r, probes)
}

func retouchedRows(d *driver, c *Config, r *Results, probes int) error {
	members := dataset.Integers(0, RetouchedN).Uint64s(0, RetouchedN)
	base, err := classic.NewRetouched(RetouchedN, RetouchedP)
	if err != nil {
		return err
	}
	base.AddUint64s(members)
	// False positives from one range of absent keys, the FPR from another.
	var fps []uint64
	cand := dataset.Integers(absentFirst, 2*RetouchedFPs/RetouchedP).Uint64s(0, 2*RetouchedFPs/RetouchedP)
	for _, k := range cand {
		if len(fps) < RetouchedFPs && base.TestUint64(k) {
			fps = append(fps, k)
		}
	}
	if len(fps) < RetouchedFPs {
		return fmt.Errorf("r: only %d false positives among %d absent keys", len(fps), len(cand))
	}
	// Hashed once, untimed: ns/clearing is SelectiveClearingHash alone.
	hs := make([]uint64, len(fps))
	for i, k := range fps {
		hs[i] = engine.HashUint64(k)
	}
	fresh := dataset.Integers(absentFirst/2, probes).Uint64s(0, probes)
	out := make([]bool, max(probes, RetouchedN))
	before := base.TestUint64s(fresh, out)
	for _, scheme := range classic.Clearings {
		if err := d.ctx.Err(); err != nil {
			return err
		}
		d.what = fmt.Sprintf("Retouched %v", scheme)
		f := base.Clone()
		for _, h := range hs {
			f.AddFalsePositiveHash(h)
		}
		cleared := 0
		curve := []TradePoint{{}}
		var spent time.Duration
		for i, h := range hs {
			t0 := time.Now()
			if f.SelectiveClearingHash(h, scheme) {
				cleared++
			}
			spent += time.Since(t0)
			if (i+1)%(RetouchedFPs/20) == 0 {
				curve = append(curve, TradePoint{f.RemovedFalsePositives(), f.FalseNegatives()})
			}
		}
		d.prog.Advance(RetouchedFPs, d.what)
		lost := RetouchedN - f.TestUint64s(members, out)
		after := f.TestUint64s(fresh, out)
		d.prog.Advance(float64(2*probes), d.what)
		r.Retouched = append(r.Retouched, RetouchedRow{
			Scheme: scheme.String(), N: RetouchedN, P: RetouchedP, M: f.M(), K: f.K(),
			Recorded: len(fps), Cleared: cleared, RemovedFPs: f.RemovedFalsePositives(),
			FalseNegatives: f.FalseNegatives(), FNCheck: lost,
			Tested: probes, FPRBefore: rate(before, probes), FPRAfter: rate(after, probes),
			ClearNs: nsPerKey(spent, len(fps)), Curve: curve,
		})
	}
	return nil
}

func dynamicRows(d *driver, c *Config, r *Results, probes int) error {
	n := DynamicNR * DynamicRows
	dyn, err := classic.NewDynamic(DynamicNR, DynamicP)
	if err != nil {
		return err
	}
	defer dyn.Close()
	members := dataset.Integers(0, n).Uint64s(0, n)
	dyn.AddUint64s(members)
	// The same rows as stand-alone classic filters, for the one-by-one
	// baseline.
	rows := make([]*classic.Filter, 0, DynamicRows)
	for i := range DynamicRows {
		f, err := classic.New(DynamicNR, DynamicP)
		if err != nil {
			return err
		}
		defer f.Close()
		f.AddUint64s(members[i*DynamicNR : (i+1)*DynamicNR])
		rows = append(rows, f)
	}
	out := make([]bool, c.Batch)
	sets := []struct {
		name string
		keys []uint64
	}{
		{KeysMembers, members[:min(probes, n)]},
		{KeysAbsent, dataset.Integers(absentFirst, probes).Uint64s(0, probes)},
	}
	for _, set := range sets {
		var dns, rns []float64
		hits := 0
		for rep := range c.Reps {
			d.what = fmt.Sprintf("Dynamic %s, rep %d/%d", set.name, rep+1, c.Reps)
			var tDyn, tRows time.Duration
			hits = 0
			for i := 0; i < len(set.keys); i += c.Batch {
				if err := d.ctx.Err(); err != nil {
					return err
				}
				b := set.keys[i:min(i+c.Batch, len(set.keys))]
				t0 := time.Now()
				hits += dyn.TestUint64s(b, out)
				t1 := time.Now()
				for _, f := range rows {
					f.TestUint64s(b, out)
				}
				tRows += time.Since(t1)
				tDyn += t1.Sub(t0)
				d.prog.Advance(float64(2*len(b)), d.what)
			}
			dns = append(dns, nsPerKey(tDyn, len(set.keys)))
			rns = append(rns, nsPerKey(tRows, len(set.keys)))
		}
		row := DynamicRow{Keys: set.name, Rows: dyn.Rows(), NR: DynamicNR, P: DynamicP,
			DynamicNs: median(dns), RowsNs: median(rns), Hits: hits}
		row.Ratio = row.DynamicNs / row.RowsNs
		if set.name == KeysAbsent {
			row.FPR, row.ModelFPR = rate(hits, len(set.keys)), dyn.ModelFPR(uint64(n))
		}
		r.Dynamic = append(r.Dynamic, row)
	}
	return nil
}
