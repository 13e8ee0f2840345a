package report

import (
	"fmt"
	"math"

	"github.com/filterengine/filterengine/bench/experiment"
)

// GrowthTable is experiment s: each row's ns/key beside the single
// blocked filter's in the same call form, and the scalable per-key rows
// against BoomFilters' ScalableBloomFilter per key (it has no batch call,
// so batch rows get no boom ratio).
func GrowthTable(rows []experiment.GrowthRow) Table {
	t := Table{
		Title: "s. Filters that grow and age: blocked.Scalable and blocked.Window",
		Note: "8-byte keys, p = 1%; queries are half members, half never added; ns/key is the median over the repetitions. " +
			"batch = TestUint64s in batches (one hash per key, one kernel over every stage or generation), per key = one call per key. " +
			"x single = this row's ns/key over the single blocked filter's in the same group and call form (scalable: one filter built for all n keys; window: one filter of a generation's n/4 keys, at two generation sizes). " +
			"boom per key = BoomFilters' ScalableBloomFilter(n, 1%, r = 0.8) per-key ns/key over this per-key row's (boom has no batch call: batch rows show -). FPR on the never-added half.",
		Header: []string{"group", "filter", "call", "n", "stages", "bits/key", "ns/key", "x single", "boom per key", "false negatives", "FPR", "model"},
	}
	// The single filter of each group, call form and generation size.
	key := func(r experiment.GrowthRow) string { return fmt.Sprint(r.Group, "/", r.Mode, "/", r.Generation) }
	single := map[string]float64{}
	boomNs := math.NaN()
	for _, r := range rows {
		if r.Filter == experiment.GrowthSingle {
			single[key(r)] = r.Ns
		}
		if r.Filter == experiment.GrowthBoom && r.Mode == experiment.GrowthPerKey {
			boomNs = r.Ns
		}
	}
	for _, r := range rows {
		x, vsBoom := math.NaN(), math.NaN()
		if s, ok := single[key(r)]; ok {
			x = r.Ns / s
		}
		if r.Group == experiment.GrowthScalable && r.Mode == experiment.GrowthPerKey {
			vsBoom = boomNs / r.Ns
		}
		parts := "-"
		if r.Parts > 0 {
			parts = fmt.Sprint(r.Parts)
		}
		t.Rows = append(t.Rows, []string{r.Group, r.Filter, r.Mode, fmtCount(r.N), parts, fmt.Sprintf("%.2f", 8*float64(r.Bytes)/float64(max(r.N, 1))),
			fmtNs(r.Ns), fmtRatio(x), fmtRatio(vsBoom), fmt.Sprint(r.FalseNegatives), fmtRate(r.FPR), fmtRate(r.ModelFPR)})
	}
	return t
}

// writeGrowthCSV writes experiment s's rows with WriteCSV's writer.
func writeGrowthCSV(write func(name string, header []string, rows [][]string) error, rows []experiment.GrowthRow) error {
	var out [][]string
	for _, r := range rows {
		out = append(out, []string{r.Group, r.Filter, r.Mode, fmt.Sprint(r.N), fmt.Sprint(r.Generation), fmt.Sprint(r.Parts), fmt.Sprint(r.Bytes),
			fmt.Sprint(r.Queried), g(r.Ns), fmt.Sprint(r.FalseNegatives), g(r.FPR), g(r.ModelFPR)})
	}
	return write(CSVFiles["s"], []string{"group", "filter", "call", "n", "generation", "parts", "bytes", "queried", "ns_per_key", "false_negatives", "fpr", "model_fpr"}, out)
}
