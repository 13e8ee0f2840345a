// Package plots draws the experiments' figures with gonum/plot, each
// written as SVG and PNG.
package plots

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/filterengine/filterengine/bench/experiment"
)

// Size of every figure; wideWidth for the bar plots with many bars.
const (
	width     = 18 * vg.Centimeter
	wideWidth = 26 * vg.Centimeter
	height    = 11 * vg.Centimeter
)

// WriteAll draws every figure the results allow into dir and returns the
// file names written, relative to dir.
func WriteAll(dir string, r *experiment.Results) ([]string, error) {
	var names []string
	for _, f := range figures(r) {
		if f.err != nil {
			return names, fmt.Errorf("plot %s: %w", f.name, f.err)
		}
		w, h := width, height
		if f.width != 0 {
			w = f.width
		}
		for _, ext := range []string{".svg", ".png"} {
			if err := f.p.Save(w, h, filepath.Join(dir, f.name+ext)); err != nil {
				return names, fmt.Errorf("plot %s%s: %w", f.name, ext, err)
			}
			names = append(names, f.name+ext)
		}
	}
	return names, nil
}

// figures are the plots the results allow, in the report's order.
func figures(r *experiment.Results) []figure {
	var figs []figure
	for _, dist := range dists(r.Stream) {
		figs = append(figs, streamFPR(r.Stream, dist))
	}
	if len(r.Stream) > 0 {
		figs = append(figs, streamTime(r.Stream))
	}
	for _, dist := range dists(r.KSweep) {
		figs = append(figs, kFPR(r.KSweep, dist), kTime(r.KSweep, dist))
	}
	for _, key := range sizedKeys(r.Sized) {
		figs = append(figs, sizedNs(r.Sized, key.n, key.p))
	}
	if len(r.Kernels) > 0 {
		figs = append(figs, kernelSpeedup(r.Kernels))
	}
	if len(r.Sets) > 0 {
		figs = append(figs, setsNs(r.Sets))
	}
	if len(r.Retouched) > 0 {
		figs = append(figs, retouchedTradeOff(r.Retouched))
	}
	if len(r.Cache) > 0 {
		figs = append(figs, cacheNs(r.Cache, cacheMember), cacheNs(r.Cache, cacheAbsent))
	}
	if len(r.Threads) > 0 {
		figs = append(figs, threadsThroughput(r.Threads, experiment.ThreadsAdd), threadsThroughput(r.Threads, experiment.ThreadsTest))
	}
	return figs
}

type figure struct {
	name  string
	p     *plot.Plot
	err   error
	width vg.Length // 0: the default width
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())
	return p
}

func dists(ps []experiment.StreamPoint) []string {
	var out []string
	for _, p := range ps {
		if !slices.Contains(out, p.Dist) {
			out = append(out, p.Dist)
		}
	}
	return out
}

func filterNames(ps []experiment.StreamPoint) []string {
	var out []string
	for _, p := range ps {
		if !slices.Contains(out, p.Filter) {
			out = append(out, p.Filter)
		}
	}
	return out
}

// palette has a distinct colour for each of the registry's entries (the
// Tableau 10 colours plus two), so no two series share one.
var palette = []color.RGBA{
	{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255},
	{148, 103, 189, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255},
	{188, 189, 34, 255}, {23, 190, 207, 255}, {0, 0, 0, 255}, {255, 215, 0, 255},
}

func colour(i int) color.Color { return palette[i%len(palette)] }

// addLine draws one series with the i-th colour and marker.
func addLine(p *plot.Plot, i int, name string, xys plotter.XYs, dashed bool) error {
	if len(xys) == 0 {
		return nil
	}
	l, s, err := plotter.NewLinePoints(xys)
	if err != nil {
		return err
	}
	l.Color = colour(i)
	s.Color = colour(i)
	s.Shape = plotutil.Shape(i)
	if dashed {
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		s.Shape = draw.CircleGlyph{}
		s.Radius = vg.Points(1)
	}
	p.Add(l, s)
	p.Legend.Add(name, l, s)
	return nil
}

// compactTicks labels large counts as 2M or 500k.
type compactTicks struct{}

func (compactTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = compact(ts[i].Value)
		}
	}
	return ts
}

func compact(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e6:
		return strconv.FormatFloat(v/1e6, 'g', 4, 64) + "M"
	case a >= 1e3:
		return strconv.FormatFloat(v/1e3, 'g', 4, 64) + "k"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// legendRoom widens the x range of a line plot by 45% on the right and
// puts the legend there, clear of the lines.
func legendRoom(p *plot.Plot) {
	p.X.Max += 0.45 * (p.X.Max - p.X.Min)
	p.Legend.Left = false
	p.Legend.Top = true
}

// headroom lifts the top of a bar plot 10% above its tallest bar.
func headroom(p *plot.Plot) {
	p.Y.Min = 0
	p.Y.Max *= 1.1
}

// streamFPR: FPR against rows inserted, one line per filter, and
// classic's model as a dashed line.
func streamFPR(ps []experiment.StreamPoint, dist string) figure {
	f := figure{name: "a_fpr_" + dist}
	sample := firstOf(ps, dist)
	f.p = newPlot(fmt.Sprintf("a. FPR as %s rows stream in (m = %s bits, k = %d)", dist, compact(float64(sample.M)), sample.K), "rows inserted", "false-positive rate")
	f.p.X.Tick.Marker = compactTicks{}
	for i, name := range filterNames(ps) {
		var xys, model plotter.XYs
		for _, p := range ps {
			if p.Dist == dist && p.Filter == name {
				xys = append(xys, plotter.XY{X: float64(p.Rows), Y: p.FPR})
				if p.ModelFPR == p.ModelFPR {
					model = append(model, plotter.XY{X: float64(p.Rows), Y: p.ModelFPR})
				}
			}
		}
		if f.err = addLine(f.p, i, name, xys, false); f.err != nil {
			return f
		}
		if name == "classic" {
			if f.err = addLine(f.p, i, "classic model", model, true); f.err != nil {
				return f
			}
		}
	}
	legendRoom(f.p)
	return f
}

func firstOf(ps []experiment.StreamPoint, dist string) experiment.StreamPoint {
	for _, p := range ps {
		if p.Dist == dist {
			return p
		}
	}
	return experiment.StreamPoint{}
}

// streamTime: total Add time per filter, one bar group per data set.
func streamTime(ps []experiment.StreamPoint) figure {
	f := figure{name: "a_time"}
	f.p = newPlot("a. Total time to stream each data set (Add: ours batch, peers per key)", "", "seconds")
	names, ds := filterNames(ps), dists(ps)
	final := map[[2]string]float64{}
	for _, p := range ps {
		final[[2]string{p.Dist, p.Filter}] = p.AddSeconds
	}
	f.err = groupedBars(f.p, names, ds, func(name, group string) float64 { return final[[2]string{group, name}] })
	return f
}

// groupedBars draws, for each category on the x axis, one bar per group.
func groupedBars(p *plot.Plot, categories, groups []string, value func(category, group string) float64) error {
	w := barWidth(len(groups))
	for gi, g := range groups {
		vals := make(plotter.Values, len(categories))
		for ci, c := range categories {
			vals[ci] = value(c, g)
		}
		b, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return err
		}
		b.Color = colour(gi)
		b.LineStyle.Width = 0
		b.Offset = barOffset(w, gi, len(groups))
		p.Add(b)
		p.Legend.Add(g, b)
	}
	categoryAxis(p, categories)
	headroom(p)
	return nil
}

// groupedLogBars is groupedBars on a log value axis (for ns/key, where
// 3 ns and 749 ns share a plot), in the given colours (nil: the palette);
// a NaN value draws no bar. The axis gets a decade above the tallest bar
// for the legend.
func groupedLogBars(p *plot.Plot, categories, groups []string, colours []color.Color, value func(category, group string) float64) {
	w := barWidth(len(groups))
	var all []float64
	for gi, g := range groups {
		vals := make([]float64, len(categories))
		for ci, c := range categories {
			vals[ci] = value(c, g)
		}
		col := colour(gi)
		if gi < len(colours) {
			col = colours[gi]
		}
		b := &logBars{values: vals, width: w, offset: barOffset(w, gi, len(groups)), colour: col}
		p.Add(b)
		p.Legend.Add(g, b)
		all = append(all, vals...)
	}
	categoryAxis(p, categories)
	lo, hi := positiveRange(all)
	logAxis(&p.Y, lo, hi*10)
}

func barWidth(groups int) vg.Length { return vg.Points(min(60/float64(max(groups, 1)), 14)) }

// barOffset centres group gi of n around its category.
func barOffset(w vg.Length, gi, n int) vg.Length {
	return w * vg.Length(float64(gi)-float64(n-1)/2)
}

// categoryAxis names the categories along x, with room for the outer
// bars, and puts the legend at the top right.
func categoryAxis(p *plot.Plot, categories []string) {
	p.Legend.Left = false
	p.NominalX(shortNames(categories)...)
	p.X.Min, p.X.Max = -0.6, float64(len(categories))-0.4
	p.X.Tick.Label.Rotation = 0.35
	p.X.Tick.Label.XAlign = draw.XRight
}

func shortNames(ns []string) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strings.ReplaceAll(n, "xor/binaryfuse8", "binaryfuse8")
	}
	return out
}

// kFPR: FPR against k on a log axis; points with no false positive are
// left out, since a log axis cannot show zero.
func kFPR(ps []experiment.StreamPoint, dist string) figure {
	f := figure{name: "b_fpr_k_" + dist}
	sample := firstOf(ps, dist)
	f.p = newPlot(fmt.Sprintf("b. FPR against k: %s, %s rows, m = %s bits", dist, compact(float64(sample.Rows)), compact(float64(sample.M))), "k (probes)", "false-positive rate (log)")
	f.p.Y.Scale = plot.LogScale{}
	f.p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	for i, name := range filterNames(ps) {
		var xys, model plotter.XYs
		for _, p := range ps {
			if p.Dist == dist && p.Filter == name {
				if p.FPR > 0 {
					xys = append(xys, plotter.XY{X: float64(p.K), Y: p.FPR})
				}
				if p.ModelFPR > 0 {
					model = append(model, plotter.XY{X: float64(p.K), Y: p.ModelFPR})
				}
			}
		}
		if f.err = addLine(f.p, i, name, xys, false); f.err != nil {
			return f
		}
		if name == "classic" {
			if f.err = addLine(f.p, i, "classic model", model, true); f.err != nil {
				return f
			}
		}
	}
	legendRoom(f.p)
	return f
}

// kTime: Add time for all rows against k.
func kTime(ps []experiment.StreamPoint, dist string) figure {
	f := figure{name: "b_time_k_" + dist}
	sample := firstOf(ps, dist)
	f.p = newPlot(fmt.Sprintf("b. Add time against k: %s, %s rows (ours batch, peers per key)", dist, compact(float64(sample.Rows))), "k (probes)", "seconds")
	for i, name := range filterNames(ps) {
		var xys plotter.XYs
		for _, p := range ps {
			if p.Dist == dist && p.Filter == name {
				xys = append(xys, plotter.XY{X: float64(p.K), Y: p.AddSeconds})
			}
		}
		if f.err = addLine(f.p, i, name, xys, false); f.err != nil {
			return f
		}
	}
	legendRoom(f.p)
	return f
}

type sizedKey struct {
	n uint64
	p float64
}

func sizedKeys(rows []experiment.SizedRow) []sizedKey {
	var out []sizedKey
	for _, r := range rows {
		k := sizedKey{r.N, r.P}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// Series of the c plots: each operation per key (light) beside our batch
// call (dark shade of the same colour); peers have no batch call, so no
// dark bar.
var sizedSeries = []barSeries[experiment.SizedRow]{
	{"Add, per key", color.RGBA{174, 199, 232, 255}, func(r experiment.SizedRow) float64 { return r.KeyAddNs }},
	{"Add, batch (ours)", color.RGBA{31, 119, 180, 255}, func(r experiment.SizedRow) float64 { return r.AddNs }},
	{"Test member, per key", color.RGBA{255, 187, 120, 255}, func(r experiment.SizedRow) float64 { return r.KeyTestMemberNs }},
	{"Test member, batch (ours)", color.RGBA{255, 127, 14, 255}, func(r experiment.SizedRow) float64 { return r.TestMemberNs }},
	{"Test absent, per key", color.RGBA{152, 223, 138, 255}, func(r experiment.SizedRow) float64 { return r.KeyTestAbsentNs }},
	{"Test absent, batch (ours)", color.RGBA{44, 160, 44, 255}, func(r experiment.SizedRow) float64 { return r.TestAbsentNs }},
}

// barSeries is one named, coloured series of bars, its value taken from
// a row.
type barSeries[R any] struct {
	name   string
	colour color.Color
	value  func(R) float64
}

// sizedNs: Add, Test member and Test absent ns/key per filter at one (n, p)
// on a log axis, one single-key call per key beside our families' batch
// call. A peer's batch column is its per-key loop again, and a static
// filter's batch Add its construction: neither is drawn as a batch bar.
func sizedNs(rows []experiment.SizedRow, n uint64, p float64) figure {
	f := figure{name: fmt.Sprintf("c_nskey_n%s_p%v", shortCount(n), p), width: wideWidth}
	f.p = newPlot(fmt.Sprintf("c. ns per key, n = %s, p = %v, 8-byte keys (log scale; light: one call per key, dark: our batch calls)", shortCount(n), p), "", "ns/key (log)")
	var names []string
	byName := map[string]experiment.SizedRow{}
	for _, r := range rows {
		if r.N == n && r.P == p {
			names = append(names, r.Filter)
			byName[r.Filter] = r
		}
	}
	var groups []string
	var colours []color.Color
	for _, s := range sizedSeries {
		groups = append(groups, s.name)
		colours = append(colours, s.colour)
	}
	groupedLogBars(f.p, names, groups, colours, func(name, group string) float64 {
		i := slices.IndexFunc(sizedSeries, func(s barSeries[experiment.SizedRow]) bool { return s.name == group })
		return sizedBar(byName[name], i)
	})
	return f
}

// sizedBar is row r's bar in series i of the c plots: NaN (no bar) for a
// batch series of a peer, whose "batch" is its per-key loop again.
func sizedBar(r experiment.SizedRow, i int) float64 {
	s := sizedSeries[i]
	if strings.Contains(s.name, "batch") && !r.Ours {
		return math.NaN()
	}
	return s.value(r)
}

// kernelSpeedup: Test-member speed-up over generic per filter and n, one
// bar per level above generic (which is 1 by definition).
func kernelSpeedup(rows []experiment.KernelRow) figure {
	f := figure{name: "d_speedup"}
	f.p = newPlot("d. Test (members) speed-up over the generic kernel, p = 1% (generic = 1)", "", "speed-up (x)")
	var cats, levels []string
	val := map[[2]string]float64{}
	for _, r := range rows {
		if r.Level == "generic" {
			continue
		}
		c := fmt.Sprintf("%s %s", strings.TrimPrefix(r.Filter, "asm."), shortCount(r.N))
		if !slices.Contains(cats, c) {
			cats = append(cats, c)
		}
		if !slices.Contains(levels, r.Level) {
			levels = append(levels, r.Level)
		}
		val[[2]string{c, r.Level}] = r.TestMemberSpeedup
	}
	f.err = groupedBars(f.p, cats, levels, func(c, l string) float64 { return val[[2]string{c, l}] })
	return f
}

// setsNs: query ns/key of experiment f, one bar per filter over each
// query's key classes.
func setsNs(rows []experiment.SetsRow) figure {
	f := figure{name: "f_nskey"}
	f.p = newPlot(fmt.Sprintf("f. Association and multiplicity query ns per key, n = %d (log scale)", rows[0].N), "", "ns/key (log)")
	var cats, names []string
	val := map[[2]string]float64{}
	for _, r := range rows {
		c := r.Query + " " + r.Keys
		if !slices.Contains(cats, c) {
			cats = append(cats, c)
		}
		if !slices.Contains(names, r.Filter) {
			names = append(names, r.Filter)
		}
		val[[2]string{c, r.Filter}] = r.Ns
	}
	groupedLogBars(f.p, cats, names, nil, func(c, n string) float64 {
		if v, ok := val[[2]string{c, n}]; ok {
			return v
		}
		return math.NaN()
	})
	return f
}

// shortCount writes powers of ten as 1e6.
func shortCount(n uint64) string {
	e := 0
	for v := n; v >= 10 && v%10 == 0; v /= 10 {
		e++
	}
	if e >= 3 && n == pow10(e)*(n/pow10(e)) && n/pow10(e) < 10 {
		return fmt.Sprintf("%de%d", n/pow10(e), e)
	}
	return fmt.Sprint(n)
}

func pow10(e int) uint64 {
	p := uint64(1)
	for range e {
		p *= 10
	}
	return p
}
