package report

import (
	"fmt"
	"math"

	"github.com/filterengine/filterengine/bench/experiment"
)

// CacheTable is experiment n: one row per filter and n, per-key and batch
// ns/key in separate columns (peers have no batch call: '-').
func CacheTable(rows []experiment.CacheRow) Table {
	sample := 0
	if len(rows) > 0 {
		sample = rows[0].Sampled
	}
	t := Table{
		Title: "n. ns/key against n: where each filter falls out of cache (p = 1%, 8-byte keys)",
		Note: fmt.Sprintf("Each filter is sized for n keys and built once (Add ns/key over the keys it holds: ours through the batch calls, peers key by key, BinaryFuse8's construction), "+
			"then %s members drawn at random over the keys it holds and %s never-added keys are tested; ns/key are medians over the repetitions. "+
			"per key = one single-key call per []byte key, every filter alike; batch = our families' batch calls (TestUint64s, spatial CheckUint64s); peers have none ('-'). "+
			"MB = the filter's table; where it outgrows the CPU's caches the ns/key climbs. "+
			"Where 'held' < n the filter holds only its first 'held' keys (a build of 1e8 keys one by one takes 30-60 s a filter): a member's probes still land at random over the whole table, "+
			"but a non-member stops sooner in an emptier filter, so the absent tests and the FPR are not given ('-'), and BinaryFuse8 (static) is left out there. false neg. over the sampled members (must be 0).",
			fmtCount(sample), fmtCount(sample)),
		Header: []string{"filter", "n", "held", "MB", "bits/key", "Add ns/key", "Add form", "Test member ns/key per key", "Test member ns/key batch",
			"Test absent ns/key per key", "Test absent ns/key batch", "batch speed-up (member)", "false neg.", "FPR"},
	}
	for _, r := range rows {
		t.Rows = append(t.Rows, []string{r.Filter, fmtCount(r.N), fmtCount(r.Held), fmt.Sprintf("%.2f", float64(r.Bytes)/1e6),
			fmt.Sprintf("%.2f", 8*float64(r.Bytes)/float64(max(r.N, 1))), fmtNs(r.AddNs), r.AddForm,
			fmtNs(r.KeyTestMemberNs), fmtNs(r.TestMemberNs), fmtNs(r.KeyTestAbsentNs), fmtNs(r.TestAbsentNs),
			fmtRatio(r.KeyTestMemberNs / r.TestMemberNs), fmt.Sprint(r.FalseNegatives), fmtRate(r.FPR)})
	}
	return t
}

// writeCacheCSV writes experiment n's rows with WriteCSV's writer.
func writeCacheCSV(write func(name string, header []string, rows [][]string) error, rows []experiment.CacheRow) error {
	var out [][]string
	for _, r := range rows {
		out = append(out, []string{r.Filter, fmt.Sprint(r.Ours), fmt.Sprint(r.N), g(r.P), fmt.Sprint(r.Held), fmt.Sprint(r.Bytes), fmt.Sprint(r.Sampled),
			g(r.AddNs), r.AddForm, g(r.KeyTestMemberNs), g(r.KeyTestAbsentNs), g(r.TestMemberNs), g(r.TestAbsentNs),
			fmt.Sprint(r.FalseNegatives), g(r.FPR)})
	}
	return write(CSVFiles["n"], []string{"filter", "ours", "n", "p", "held", "bytes", "sampled", "add_ns_per_key", "add_form",
		"per_key_test_member_ns_per_key", "per_key_test_absent_ns_per_key", "batch_test_member_ns_per_key", "batch_test_absent_ns_per_key",
		"false_negatives", "fpr"}, out)
}

// ThreadsTable is experiment t: Mkeys/s per family, operation and
// goroutine count, with the speed-up over one goroutine, and the cores
// the machine has (beyond them goroutines take turns).
func ThreadsTable(rows []experiment.ThreadsRow) Table {
	cpus, procs := 0, 0
	var n uint64
	if len(rows) > 0 {
		cpus, procs, n = rows[0].CPUs, rows[0].MaxProcs, rows[0].N
	}
	t := Table{
		Title: fmt.Sprintf("t. Concurrent throughput against goroutines (%d CPUs: beyond %d goroutines there are no more cores)", cpus, cpus),
		Note: fmt.Sprintf("A fresh filter for n = %s keys at p = 1%% per run, filled once untimed and Reset, so the timed adds pay no first-touch page faults (spatial has no Reset: its adds fault its cells in); G goroutines released together add all n 8-byte keys (each a contiguous share, one call per []byte key), then test them; "+
			"Mkeys/s = n over the wall time from the release to the last goroutine's end, median over the repetitions; x 1 goroutine = this row's Mkeys/s over the same family's and call's with one goroutine. "+
			"This machine has %d CPUs (GOMAXPROCS %d): beyond %d goroutines there are no more cores, they take turns, and the throughput can only stay level or fall. "+
			"The %q rows time XXH3 of each key alone, no filter: their x 1 goroutine is what the cores free during the run allowed (on a shared machine, less than the core count), the ceiling of every family's. "+
			"false neg. = keys the concurrent test missed after the concurrent adds (must be 0).",
			fmtCount(n), cpus, procs, cpus, experiment.ThreadsBaseline),
		Header: []string{"family", "op", "call", "n", "goroutines", "Mkeys/s", "x 1 goroutine", "false neg."},
	}
	one := map[string]float64{}
	for _, r := range rows {
		if r.Goroutines == 1 {
			one[r.Family+"/"+r.Op] = r.MKeysPerSec
		}
	}
	for _, r := range rows {
		x := math.NaN()
		if b, ok := one[r.Family+"/"+r.Op]; ok {
			x = r.MKeysPerSec / b
		}
		fn := "-"
		if r.Op == experiment.ThreadsTest {
			fn = fmt.Sprint(r.FalseNegatives)
		}
		t.Rows = append(t.Rows, []string{r.Family, r.Op, r.Call, fmtCount(r.N), fmt.Sprint(r.Goroutines), fmtMkeys(r.MKeysPerSec), fmtRatio(x), fn})
	}
	return t
}

func fmtMkeys(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	if x < 10 {
		return fmt.Sprintf("%.2f", x)
	}
	return fmt.Sprintf("%.1f", x)
}

// writeThreadsCSV writes experiment t's rows with WriteCSV's writer.
func writeThreadsCSV(write func(name string, header []string, rows [][]string) error, rows []experiment.ThreadsRow) error {
	var out [][]string
	for _, r := range rows {
		out = append(out, []string{r.Family, r.Op, r.Call, fmt.Sprint(r.N), fmt.Sprint(r.Goroutines), fmt.Sprint(r.CPUs), fmt.Sprint(r.MaxProcs),
			g(r.MKeysPerSec), fmt.Sprint(r.FalseNegatives)})
	}
	return write(CSVFiles["t"], []string{"family", "op", "call", "n", "goroutines", "cpus", "gomaxprocs", "mkeys_per_sec", "false_negatives"}, out)
}
