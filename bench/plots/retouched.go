package plots

import (
	"fmt"

	"github.com/filterengine/filterengine/bench/experiment"
)

// retouchedTradeOff: experiment r's clearing schemes, false positives
// removed beside false negatives introduced.
func retouchedTradeOff(rows []experiment.RetouchedRow) figure {
	f := figure{name: "r_retouched"}
	f.p = newPlot(fmt.Sprintf("r. Retouched filter, n = %s, p = %v: %d recorded false positives cleared per scheme",
		shortCount(rows[0].N), rows[0].P, rows[0].Recorded), "", "keys")
	const removed, introduced = "false positives removed", "false negatives introduced"
	var schemes []string
	val := map[[2]string]float64{}
	for _, r := range rows {
		schemes = append(schemes, r.Scheme)
		val[[2]string{r.Scheme, removed}] = float64(r.RemovedFPs)
		val[[2]string{r.Scheme, introduced}] = float64(r.FalseNegatives)
	}
	f.err = groupedBars(f.p, schemes, []string{removed, introduced}, func(s, g string) float64 { return val[[2]string{s, g}] })
	f.p.Y.Max *= 1.25 // room for the legend above the bars
	return f
}
