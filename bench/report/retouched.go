package report

import (
	"fmt"

	"github.com/filterengine/filterengine/bench/experiment"
)

// retouchedTables are experiment r's tables: the clearing schemes and the
// Dynamic comparison.
func retouchedTables(r *experiment.Results) []Table {
	var ts []Table
	if len(r.Retouched) > 0 {
		ts = append(ts, RetouchedTable(r.Retouched))
	}
	if len(r.Dynamic) > 0 {
		ts = append(ts, DynamicTable(r.Dynamic))
	}
	return ts
}

// RetouchedTable is experiment r's selective clearing per scheme.
func RetouchedTable(rows []experiment.RetouchedRow) Table {
	t := Table{
		Title: "r. Retouched Bloom filter: false positives removed against false negatives introduced, per clearing scheme",
		Note: fmt.Sprintf("classic.NewRetouched(n, p) with n 8-byte keys; the first %d never-added keys that test present are recorded (AddFalsePositive) and each cleared with SelectiveClearing under the scheme, on a clone of the same filter. "+
			"bits cleared = calls that reset a bit (a false positive can go with an earlier one's bit); FPs removed = recorded false positives now absent; FNs = FalseNegatives() (exact), checked by testing every added key; "+
			"FPR before/after on other never-added keys; ns/clearing includes the index build. Donnet, Baynat & Friedman (CoNEXT 2006) found MinimumFN and Ratio lose fewer keys than Random.", experiment.RetouchedFPs),
		Header: []string{"scheme", "n", "p", "m", "k", "FPs recorded", "bits cleared", "FPs removed", "FNs introduced", "FN rate", "FNs checked", "FPR before", "FPR after", "ns/clearing"},
	}
	for _, r := range rows {
		t.Rows = append(t.Rows, []string{r.Scheme, fmtCount(r.N), fmt.Sprint(r.P), fmtCount(r.M), fmt.Sprint(r.K),
			fmtCount(r.Recorded), fmtCount(r.Cleared), fmtCount(r.RemovedFPs), fmtCount(r.FalseNegatives),
			fmtRate(float64(r.FalseNegatives) / float64(max(r.N, 1))), fmtCount(r.FNCheck),
			fmtRate(r.FPRBefore), fmtRate(r.FPRAfter), fmtNs(r.ClearNs)})
	}
	return t
}

// DynamicTable is experiment r's Dynamic batch test against its rows one
// by one.
func DynamicTable(rows []experiment.DynamicRow) Table {
	t := Table{
		Title: "r. classic.Dynamic batch TestUint64s against the same rows' batch TestUint64s one after the other",
		Note: "Dynamic hashes each key once and probes its positions in every row together; the baseline calls classic TestUint64s on each row in turn (hashing per row). " +
			"ratio = Dynamic ns/key over the baseline's (target: <= 1.5). Model FPR = 1 - (1 - p')^rows.",
		Header: []string{"keys", "rows", "keys/row", "p", "Dynamic ns/key", "rows one by one ns/key", "ratio", "hits", "FPR", "model FPR"},
	}
	for _, r := range rows {
		fpr, model := "-", "-"
		if r.Keys == experiment.KeysAbsent {
			fpr, model = fmtRate(r.FPR), fmtRate(r.ModelFPR)
		}
		t.Rows = append(t.Rows, []string{r.Keys, fmt.Sprint(r.Rows), fmtCount(r.NR), fmt.Sprint(r.P),
			fmtNs(r.DynamicNs), fmtNs(r.RowsNs), fmtRatio(r.Ratio), fmtCount(r.Hits), fpr, model})
	}
	return t
}

// writeRetouchedCSV writes experiment r's two CSV files through WriteCSV's
// writer.
func writeRetouchedCSV(write func(string, []string, [][]string) error, r *experiment.Results) error {
	var rs [][]string
	for _, x := range r.Retouched {
		rs = append(rs, []string{x.Scheme, fmt.Sprint(x.N), g(x.P), fmt.Sprint(x.M), fmt.Sprint(x.K), fmt.Sprint(x.Recorded), fmt.Sprint(x.Cleared),
			fmt.Sprint(x.RemovedFPs), fmt.Sprint(x.FalseNegatives), fmt.Sprint(x.FNCheck), fmt.Sprint(x.Tested), g(x.FPRBefore), g(x.FPRAfter), g(x.ClearNs)})
	}
	if err := write(CSVFiles["r"], []string{"scheme", "n", "p", "m", "k", "recorded_fps", "bits_cleared", "removed_fps",
		"false_negatives", "false_negatives_checked", "tested", "fpr_before", "fpr_after", "ns_per_clearing"}, rs); err != nil {
		return err
	}
	var ds [][]string
	for _, x := range r.Dynamic {
		ds = append(ds, []string{x.Keys, fmt.Sprint(x.Rows), fmt.Sprint(x.NR), g(x.P), g(x.DynamicNs), g(x.RowsNs), g(x.Ratio),
			fmt.Sprint(x.Hits), g(x.FPR), g(x.ModelFPR)})
	}
	return write(CSVFiles["r-dynamic"], []string{"keys", "rows", "keys_per_row", "p", "dynamic_ns_per_key", "rows_one_by_one_ns_per_key",
		"ratio", "hits", "fpr", "model_fpr"}, ds)
}
