package report

import (
	"fmt"
	"math"

	"github.com/filterengine/filterengine/bench/experiment"
)

// FormatsKVTable is experiment g's LevelDB and Pebble rows: each format,
// ours and the engine's own code, with ours' speedup over the peer.
func FormatsKVTable(rows []experiment.FormatsKVRow) Table {
	t := Table{
		Title: "g. Storage-engine filter formats: ours against the engine's own code",
		Note: "Build = the whole filter from n keys (ns per key); MayMatch = one call per key over n distinct members or n distinct non-members, " +
			"one filter of n keys; median over the repetitions, implementations alternating. 'same bytes' = equal to the other implementation's filter. " +
			"Speedups are the peer's ns over ours (build / member / non-member).",
		Header: []string{"format", "implementation", "n", "key bytes", "bits/key", "filter bytes", "build ns/key", "member ns/key", "non-member ns/key",
			"FPR", "false negatives", "same bytes", "speedup build", "speedup member", "speedup non-member"},
	}
	for _, r := range rows {
		sb, sm, sa := math.NaN(), math.NaN(), math.NaN()
		if peer, ok := formatsKVPeer(rows, r); ok {
			sb, sm, sa = peer.BuildNs/r.BuildNs, peer.MemberNs/r.MemberNs, peer.AbsentNs/r.AbsentNs
		}
		t.Rows = append(t.Rows, []string{r.Format, r.Impl, fmtCount(r.N), fmt.Sprint(r.KeyLen), fmt.Sprint(r.BitsPerKey), fmtCount(r.Bytes),
			fmtNs(r.BuildNs), fmtNs(r.MemberNs), fmtNs(r.AbsentNs), fmtRate(r.FPR), fmt.Sprint(r.FalseNegatives), fmt.Sprint(r.SameBytes),
			fmtRatio(sb), fmtRatio(sm), fmtRatio(sa)})
	}
	return t
}

// formatsKVPeer finds the other implementation of our row's format; peer
// rows get none.
func formatsKVPeer(rows []experiment.FormatsKVRow, ours experiment.FormatsKVRow) (experiment.FormatsKVRow, bool) {
	if ours.Impl != "filterengine" {
		return ours, false
	}
	for _, r := range rows {
		if r.Format == ours.Format && r.N == ours.N && r.Impl != ours.Impl {
			return r, true
		}
	}
	return ours, false
}

// writeFormatsKVCSV writes experiment g's LevelDB and Pebble rows with
// WriteCSV's writer.
func writeFormatsKVCSV(write func(string, []string, [][]string) error, rows []experiment.FormatsKVRow) error {
	var out [][]string
	for _, r := range rows {
		out = append(out, []string{r.Format, r.Impl, fmt.Sprint(r.N), fmt.Sprint(r.BitsPerKey), fmt.Sprint(r.KeyLen), fmt.Sprint(r.Bytes),
			g(r.BuildNs), g(r.MemberNs), g(r.AbsentNs), fmt.Sprint(r.FalseNegatives), g(r.FPR), fmt.Sprint(r.SameBytes)})
	}
	return write(CSVFiles["g-kv"], []string{"format", "impl", "n", "bits_per_key", "key_bytes", "bytes", "build_ns_per_key",
		"member_ns_per_key", "nonmember_ns_per_key", "false_negatives", "fpr", "same_bytes"}, out)
}
