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

// Size of every figure.
const (
	width  = 18 * vg.Centimeter
	height = 11 * vg.Centimeter
)

// WriteAll draws every figure the results allow into dir and returns the
// file names written, relative to dir.
func WriteAll(dir string, r *experiment.Results) ([]string, error) {
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
	var names []string
	for _, f := range figs {
		if f.err != nil {
			return names, fmt.Errorf("plot %s: %w", f.name, f.err)
		}
		for _, ext := range []string{".svg", ".png"} {
			if err := f.p.Save(width, height, filepath.Join(dir, f.name+ext)); err != nil {
				return names, fmt.Errorf("plot %s%s: %w", f.name, ext, err)
			}
			names = append(names, f.name+ext)
		}
	}
	return names, nil
}

type figure struct {
	name string
	p    *plot.Plot
	err  error
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
	f.p = newPlot("a. Total time to stream each data set (Add)", "", "seconds")
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
	w := vg.Points(min(60/float64(max(len(groups), 1)), 14))
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
		b.Offset = w * vg.Length(float64(gi)-float64(len(groups)-1)/2)
		p.Add(b)
		p.Legend.Add(g, b)
	}
	p.Legend.Left = false
	p.NominalX(shortNames(categories)...)
	// Room for the outer bars of the first and last groups.
	p.X.Min, p.X.Max = -0.6, float64(len(categories))-0.4
	headroom(p)
	p.X.Tick.Label.Rotation = 0.35
	p.X.Tick.Label.XAlign = draw.XRight
	return nil
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
	f.p = newPlot(fmt.Sprintf("b. Add time against k: %s, %s rows", dist, compact(float64(sample.Rows))), "k (probes)", "seconds")
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

// sizedNs: Add, Test member and Test absent ns/key per filter at one (n, p),
// one single-key call per key, beside the batch Test member (our batch
// call; a peer without one has its per-key loop there, and the legend
// says so).
func sizedNs(rows []experiment.SizedRow, n uint64, p float64) figure {
	const batchMember = "Test member (batch; peers per key)"
	f := figure{name: fmt.Sprintf("c_nskey_n%s_p%v", shortCount(n), p)}
	f.p = newPlot(fmt.Sprintf("c. ns per key, n = %d, p = %v (8-byte keys)", n, p), "", "ns/key")
	var names []string
	byName := map[string]experiment.SizedRow{}
	for _, r := range rows {
		if r.N == n && r.P == p {
			names = append(names, r.Filter)
			byName[r.Filter] = r
		}
	}
	ops := []string{"Add (per key)", "Test member (per key)", "Test absent (per key)", batchMember}
	f.err = groupedBars(f.p, names, ops, func(name, op string) float64 {
		r := byName[name]
		switch op {
		case "Add (per key)":
			if math.IsNaN(r.KeyAddNs) { // a static filter: built, not added to
				return 0
			}
			return r.KeyAddNs
		case "Test member (per key)":
			return r.KeyTestMemberNs
		case "Test absent (per key)":
			return r.KeyTestAbsentNs
		}
		return r.TestMemberNs
	})
	return f
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
	f.p = newPlot(fmt.Sprintf("f. Association and multiplicity query ns per key, n = %d", rows[0].N), "", "ns/key")
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
	f.err = groupedBars(f.p, cats, names, func(c, n string) float64 { return val[[2]string{c, n}] })
	f.p.Y.Max *= 1.4 // the legend's five entries sit above the bars
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
