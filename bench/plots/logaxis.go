package plots

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// logAxis puts ax on a log scale spanning the decades around the
// positive values in [lo, hi], labelled at 1, 2 and 5 times each power of
// ten: a 3 ns bar and a 749 ns bar are both readable. It reports false,
// leaving ax linear, when there is no positive value.
func logAxis(ax *plot.Axis, lo, hi float64) bool {
	if !(lo > 0) || !(hi > 0) || math.IsInf(hi, 0) {
		return false
	}
	ax.Scale = plot.LogScale{}
	ax.Tick.Marker = logTicks{}
	ax.Min = math.Pow(10, math.Floor(math.Log10(lo)))
	ax.Max = math.Pow(10, math.Ceil(math.Log10(hi)))
	if ax.Max <= ax.Min {
		ax.Max = ax.Min * 10
	}
	return true
}

// positiveRange is the smallest and largest positive finite value of xs,
// NaN and NaN when there is none.
func positiveRange(xs []float64) (lo, hi float64) {
	lo, hi = math.NaN(), math.NaN()
	for _, x := range xs {
		if !(x > 0) || math.IsInf(x, 0) {
			continue
		}
		if !(x >= lo) {
			lo = x
		}
		if !(x <= hi) {
			hi = x
		}
	}
	return lo, hi
}

// logTicks marks every integer multiple of each power of ten and labels
// 1, 2 and 5 times it.
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for dec := math.Pow(10, math.Floor(math.Log10(min))); dec <= max; dec *= 10 {
		for i := 1; i < 10; i++ {
			v := dec * float64(i)
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if i == 1 || i == 2 || i == 5 {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// logBars is a bar series that rises from the bottom of the plot area,
// so it can stand on a log axis (where a bar from 0 cannot); a value that
// is NaN or not positive draws no bar.
type logBars struct {
	values []float64
	width  vg.Length
	offset vg.Length
	colour color.Color
}

func (b *logBars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for i, v := range b.values {
		if !(v > 0) {
			continue
		}
		x := trX(float64(i))
		if !c.ContainsX(x) {
			continue
		}
		x0 := x - b.width/2 + b.offset
		pts := []vg.Point{{X: x0, Y: c.Min.Y}, {X: x0, Y: trY(v)}, {X: x0 + b.width, Y: trY(v)}, {X: x0 + b.width, Y: c.Min.Y}}
		c.FillPolygon(b.colour, c.ClipPolygonY(pts))
	}
}

// DataRange spans the categories and the positive values.
func (b *logBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	lo, hi := positiveRange(b.values)
	if math.IsNaN(lo) {
		lo, hi = 1, 1
	}
	return 0, float64(len(b.values) - 1), lo, hi
}

// Thumbnail is the legend's swatch.
func (b *logBars) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}}
	c.FillPolygon(b.colour, c.ClipPolygonY(pts))
}

// vline is a vertical line across the whole plot area at X, for a mark
// such as the machine's core count.
type vline struct {
	X     float64
	Style draw.LineStyle
}

func (l *vline) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, _ := plt.Transforms(&c)
	x := trX(l.X)
	if !c.ContainsX(x) {
		return
	}
	c.StrokeLine2(l.Style, x, c.Min.Y, x, c.Max.Y)
}

func (l *vline) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(l.Style, c.Min.X, y, c.Max.X, y)
}
