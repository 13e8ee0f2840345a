package plots

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/filterengine/filterengine/bench/experiment"
)

// Which test of experiment n a plot shows.
const (
	cacheMember = "member"
	cacheAbsent = "absent"
)

// cacheNs: experiment n's Test ns/key against n on log-log axes, one
// colour per filter: a solid line for the single-key call (every filter),
// a dashed one for our batch call. The x ticks give the size of a 1%
// filter of 1.2 bytes per key (blocked's when it ran), so the knees can be
// read against the cache sizes.
func cacheNs(rows []experiment.CacheRow, which string) figure {
	f := figure{name: "n_test_" + which}
	title := fmt.Sprintf("n. Test (%ss) ns/key against n, p = 1%% (log-log; solid: one call per key, dashed: our batch calls)", which)
	if i := slices.IndexFunc(rows, func(r experiment.CacheRow) bool { return r.Held < r.N }); i >= 0 && which == cacheAbsent {
		title += fmt.Sprintf("\nnone above n = %s: a filter there holds %s keys, and a non-member stops sooner in an emptier filter", shortCount(rows[i].Held), shortCount(rows[i].Held))
	}
	f.p = newPlot(title, "n keys (table size of blocked at 1%)", "ns/key (log)")
	var names []string
	var ns []uint64
	for _, r := range rows {
		if !slices.Contains(names, r.Filter) {
			names = append(names, r.Filter)
		}
		if !slices.Contains(ns, r.N) {
			ns = append(ns, r.N)
		}
	}
	var all []float64
	for i, name := range names {
		var key, batch plotter.XYs
		for _, r := range rows {
			if r.Filter != name {
				continue
			}
			k, b := r.KeyTestMemberNs, r.TestMemberNs
			if which == cacheAbsent {
				k, b = r.KeyTestAbsentNs, r.TestAbsentNs
			}
			if k > 0 {
				key = append(key, plotter.XY{X: float64(r.N), Y: k})
			}
			if b > 0 && r.Ours {
				batch = append(batch, plotter.XY{X: float64(r.N), Y: b})
			}
			all = append(all, k, b)
		}
		if f.err = addSeries(f.p, i, name+", per key", key, false); f.err != nil {
			return f
		}
		if f.err = addSeries(f.p, i, name+", batch", batch, true); f.err != nil {
			return f
		}
	}
	lo, hi := positiveRange(all)
	logAxis(&f.p.Y, lo, hi)
	f.p.X.Scale = plot.LogScale{}
	f.p.X.Tick.Marker = sizeTicks(rows, ns)
	f.p.X.Min, f.p.X.Max = float64(slices.Min(ns))/1.5, float64(slices.Max(ns))*1.5*6 // room for the legend on the right
	f.p.Legend.Top, f.p.Legend.Left = true, false
	f.width = wideWidth
	return f
}

// sizeTicks labels each n with the table size of blocked's filter there
// (or of the first filter measured at that n).
func sizeTicks(rows []experiment.CacheRow, ns []uint64) plot.ConstantTicks {
	var ts plot.ConstantTicks
	for _, n := range ns {
		var bytes uint64
		for _, r := range rows {
			if r.N == n && (bytes == 0 || r.Filter == "blocked") {
				bytes = r.Bytes
			}
		}
		ts = append(ts, plot.Tick{Value: float64(n), Label: shortCount(n) + "\n" + sizeLabel(bytes)})
	}
	return ts
}

// sizeLabel writes a byte count as 12 KB, 1.2 MB or 120 MB.
func sizeLabel(b uint64) string {
	v := float64(b)
	for _, u := range []string{"B", "KB", "MB", "GB"} {
		if v < 1000 || u == "GB" {
			return fmt.Sprintf("%.3g %s", v, u)
		}
		v /= 1000
	}
	return ""
}

// addSeries is addLine for a plot where a filter has two series of one
// colour: the second (dashed) keeps the colour and marker.
func addSeries(p *plot.Plot, i int, name string, xys plotter.XYs, dashed bool) error {
	if len(xys) == 0 {
		return nil
	}
	l, s, err := plotter.NewLinePoints(xys)
	if err != nil {
		return err
	}
	l.Color, s.Color = colour(i), colour(i)
	s.Shape = plotutil.Shape(i)
	if dashed {
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	p.Add(l, s)
	p.Legend.Add(name, l, s)
	return nil
}

// threadsThroughput: experiment t's Mkeys/s against goroutines for one
// operation, one line per family, log-log, with the machine's core count
// marked: beyond it goroutines take turns on the same cores.
func threadsThroughput(rows []experiment.ThreadsRow, op string) figure {
	f := figure{name: "t_" + op}
	cpus := rows[0].CPUs
	f.p = newPlot(fmt.Sprintf("t. Concurrent %s, n = %s: Mkeys/s against goroutines (%d CPUs: beyond %d goroutines no more cores)",
		op, shortCount(rows[0].N), cpus, cpus), "goroutines (log)", "Mkeys/s (log)")
	f.width = wideWidth
	var fams []string
	var gs []float64
	var all []float64
	mine := func(r experiment.ThreadsRow) bool { return r.Op == op || r.Op == experiment.ThreadsHash }
	for _, r := range rows {
		if !mine(r) {
			continue
		}
		if !slices.Contains(fams, r.Family) {
			fams = append(fams, r.Family)
		}
		if !slices.Contains(gs, float64(r.Goroutines)) {
			gs = append(gs, float64(r.Goroutines))
		}
		all = append(all, r.MKeysPerSec)
	}
	for i, fam := range fams {
		var xys plotter.XYs
		call := ""
		for _, r := range rows {
			if mine(r) && r.Family == fam && r.MKeysPerSec > 0 {
				xys = append(xys, plotter.XY{X: float64(r.Goroutines), Y: r.MKeysPerSec})
				call = r.Call
			}
		}
		name := fmt.Sprintf("%s %s", fam, call)
		if fam == experiment.ThreadsBaseline {
			name = "XXH3 alone (no filter): the cores free"
		}
		if f.err = addSeries(f.p, i, name, xys, fam == experiment.ThreadsBaseline); f.err != nil {
			return f
		}
	}
	mark := &vline{X: float64(cpus), Style: draw.LineStyle{Width: vg.Points(1), Dashes: []vg.Length{vg.Points(2), vg.Points(2)}}}
	f.p.Add(mark)
	f.p.Legend.Add(fmt.Sprintf("%d CPUs: no more cores beyond", cpus), mark)
	lo, hi := positiveRange(all)
	logAxis(&f.p.Y, lo, hi*10)
	f.p.X.Scale = plot.LogScale{}
	var ts plot.ConstantTicks
	for _, g := range gs {
		ts = append(ts, plot.Tick{Value: g, Label: fmt.Sprint(g)})
	}
	f.p.X.Tick.Marker = ts
	f.p.X.Min, f.p.X.Max = slices.Min(gs)/1.3, slices.Max(gs)*1.3
	f.p.Legend.Top, f.p.Legend.Left = true, false
	if math.IsNaN(lo) {
		f.err = fmt.Errorf("no throughput above zero")
	}
	return f
}
