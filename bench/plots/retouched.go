package plots

import (
	"fmt"

	"gonum.org/v1/plot/plotter"

	"github.com/filterengine/filterengine/bench/experiment"
)

// retouchedTradeOff: experiment r's clearing schemes as curves of false
// negatives introduced against false positives removed while the recorded
// false positives are cleared one by one (the axes of Donnet, Baynat &
// Friedman 2006).
func retouchedTradeOff(rows []experiment.RetouchedRow) figure {
	f := figure{name: "r_retouched"}
	f.p = newPlot(fmt.Sprintf("r. Retouched filter, n = %s, p = %v: clearing %d recorded false positives",
		shortCount(rows[0].N), rows[0].P, rows[0].Recorded), "recorded false positives removed", "added keys lost (false negatives)")
	for i, r := range rows {
		xys := make(plotter.XYs, len(r.Curve))
		for j, pt := range r.Curve {
			xys[j].X, xys[j].Y = float64(pt.RemovedFPs), float64(pt.FalseNegatives)
		}
		if err := addLine(f.p, i, r.Scheme, xys, false); err != nil {
			f.err = err
			return f
		}
	}
	f.p.Legend.Top, f.p.Legend.Left = true, true
	return f
}
