package report

import (
	"fmt"

	"github.com/filterengine/filterengine/bench/experiment"
)

// writeFormatsParquetCSV writes experiment g's Parquet rows with
// WriteCSV's writer.
func writeFormatsParquetCSV(write func(string, []string, [][]string) error, rows []experiment.FormatsParquetRow) error {
	var out [][]string
	for _, r := range rows {
		out = append(out, []string{r.Op, r.Impl, r.Level, fmt.Sprint(r.N), fmt.Sprint(r.Bytes), g(r.NsPerKey), r.Peer, g(r.Ratio),
			g(r.Target), fmt.Sprint(r.Hits), fmt.Sprint(r.SameBits)})
	}
	return write(CSVFiles["g"], []string{"op", "impl", "level", "n", "bytes", "ns_per_key", "peer", "ratio", "target", "hits", "same_bits"}, out)
}

// FormatsParquetTable is the Parquet half of experiment g.
func FormatsParquetTable(rows []experiment.FormatsParquetRow) Table {
	t := Table{
		Title: "g. Parquet split-block Bloom filter: parquet.Filter against arrow-go's block-split bloom filter",
		Note: "Both sized by OptimalNumBytes(n, 0.01) (arrow's own sizing) and filled with XXH64 of the INT64 values 0..n-1; " +
			"tests stream 2n distinct hashes (n members, n absent, interleaved); adds time a second pass of the n members into a filter that holds them (the first touches fresh pages); ns/key is the median over the repetitions, " +
			"the implementations alternating within each. Per-key loops store every answer (no branch on it) in the same loop for both libraries. " +
			"x peer = the peer's ns/key over this row's; target = the minimum we hold ourselves to (batch TestHashes >= 5x and single-key TestHash >= 1.5x arrow's per-key CheckHash). " +
			"same bits = our bitset equals arrow's after the same inserts.",
		Header: []string{"op", "implementation", "level", "n", "bytes", "ns/key", "peer", "x peer", "target", "met", "hits", "same bits"},
	}
	for _, r := range rows {
		target, met := "", ""
		if r.Target > 0 {
			target = fmt.Sprintf(">= %gx", r.Target)
			met = fmt.Sprint(r.Ratio >= r.Target)
		}
		hits := ""
		if r.Op == "test" {
			hits = fmtCount(r.Hits)
		}
		t.Rows = append(t.Rows, []string{r.Op, r.Impl, r.Level, fmtCount(r.N), fmtCount(r.Bytes), fmtNs(r.NsPerKey), r.Peer,
			fmtRatio(r.Ratio), target, met, hits, fmt.Sprint(r.SameBits)})
	}
	return t
}
