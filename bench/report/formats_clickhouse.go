package report

import (
	"fmt"
	"math"

	"github.com/filterengine/filterengine/bench/experiment"
)

// FormatsClickHouseTable is experiment g's ClickHouse rows: each skip
// index's batch build and prepared-probe test against the package's own
// per-row and per-granule calls.
func FormatsClickHouseTable(rows []experiment.FormatsClickHouseRow) Table {
	t := Table{
		Title: "g. ClickHouse skip indexes (formats/clickhouse): batch build and prepared probes against the per-row and per-granule calls",
		Note: "The package's scalar reference (ClickHouse's code line by line) is test-only, so this compares its public calls: " +
			"build = NewGranule, the rows added, then MarshalBinary, ns per token (tokenbf_v1), n-gram (ngrambf_v1) or value (bloom_filter) " +
			"over one granule of the given rows; test = every queried word (hasToken) or value asked of every granule, ns per token per granule. " +
			"Median over the repetitions, implementations alternating. x peer = the peer's ns over this row's. " +
			"same = equal MarshalBinary bytes (build) or the same granules kept (test); missed = granules holding the token that were skipped (must be 0).",
		Header: []string{"op", "index", "data", "implementation", "rows/granule", "granules", "tokens", "granule bytes", "ns/token", "peer", "x peer", "kept", "missed", "same"},
	}
	for _, r := range rows {
		kept, missed := "", ""
		if r.Op == "test" {
			kept = fmtCount(r.Kept)
			if r.Peer != "" {
				missed = fmt.Sprint(r.Missed)
			}
		}
		granuleBytes := ""
		if r.Op == "build" {
			granuleBytes = fmtCount(r.Bytes)
		}
		t.Rows = append(t.Rows, []string{r.Op, r.Index, r.Data, r.Impl, fmtCount(r.Rows), fmtCount(r.Granules), fmtCount(r.Tokens), granuleBytes,
			fmtNsFine(r.NsPerToken), r.Peer, fmtRatio(r.Ratio), kept, missed, fmt.Sprint(r.SameBytes)})
	}
	return t
}

// fmtNsFine prints ns with two decimals: a test costs about a nanosecond
// per granule.
func fmtNsFine(ns float64) string {
	if math.IsNaN(ns) {
		return "-"
	}
	return fmt.Sprintf("%.2f", ns)
}

// writeFormatsClickHouseCSV writes experiment g's ClickHouse rows with
// WriteCSV's writer.
func writeFormatsClickHouseCSV(write func(string, []string, [][]string) error, rows []experiment.FormatsClickHouseRow) error {
	var out [][]string
	for _, r := range rows {
		out = append(out, []string{r.Op, r.Index, r.Data, r.Impl, fmt.Sprint(r.Rows), fmt.Sprint(r.Granules), fmt.Sprint(r.Tokens), fmt.Sprint(r.Bytes),
			g(r.NsPerToken), r.Peer, g(r.Ratio), fmt.Sprint(r.Kept), fmt.Sprint(r.Missed), fmt.Sprint(r.SameBytes)})
	}
	return write(CSVFiles["g-clickhouse"], []string{"op", "index", "data", "impl", "rows_per_granule", "granules", "tokens", "granule_bytes",
		"ns_per_token", "peer", "ratio", "kept", "missed", "same"}, out)
}
