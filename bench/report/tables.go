package report

import (
	"fmt"
	"math"
	"slices"

	"github.com/filterengine/filterengine/bench/experiment"
)

// Tables returns the report's tables for whatever the run measured.
func Tables(r *experiment.Results) []Table {
	var ts []Table
	if len(r.Stream) > 0 {
		ts = append(ts, StreamTable(r.Stream))
	}
	if len(r.KSweep) > 0 {
		ts = append(ts, KSweepTables(r.KSweep)...)
	}
	if len(r.Sized) > 0 {
		ts = append(ts, SizedTable(r.Sized))
	}
	if len(r.Kernels) > 0 {
		ts = append(ts, KernelTable(r.Kernels))
	}
	if len(r.Sets) > 0 {
		ts = append(ts, SetsTable(r.Sets))
	}
	ts = append(ts, retouchedTables(r)...)
	if len(r.FormatsParquet) > 0 {
		ts = append(ts, FormatsParquetTable(r.FormatsParquet))
	}
	if len(r.Growth) > 0 {
		ts = append(ts, GrowthTable(r.Growth))
	}
	if len(r.FormatsKV) > 0 {
		ts = append(ts, FormatsKVTable(r.FormatsKV))
	}
	if len(r.FormatsClickHouse) > 0 {
		ts = append(ts, FormatsClickHouseTable(r.FormatsClickHouse))
	}
	if len(r.Cache) > 0 {
		ts = append(ts, CacheTable(r.Cache))
	}
	if len(r.Threads) > 0 {
		ts = append(ts, ThreadsTable(r.Threads))
	}
	return ts
}

// finalPoints keeps the last checkpoint of every (distribution, filter).
func finalPoints(ps []experiment.StreamPoint) []experiment.StreamPoint {
	var out []experiment.StreamPoint
	for i, p := range ps {
		if i+1 == len(ps) || ps[i+1].Dist != p.Dist || ps[i+1].Filter != p.Filter {
			out = append(out, p)
		}
	}
	return out
}

// StreamTable is experiment a's summary: each filter after the whole data
// set.
func StreamTable(ps []experiment.StreamPoint) Table {
	t := Table{
		Title:  "a. Seed configuration: every data set streamed into every filter",
		Note:   "FPR measured on never-inserted values after the last row; model = the filter's own prediction for the distinct keys. m counts bits (counters for counting, cells for spatial). Six-digit text keys repeat, so the FPR follows the distinct keys, not the rows. add s = total time in Add; every checkpoint is in stream.csv. Call forms: our filters add and test through their batch calls (AddKeys, TestKeys), the peers key by key (they have no batch call), so the add and test columns compare our batch with their per-key calls; per key against per key is in c and n.",
		Header: []string{"data set", "filter", "m", "k", "rows", "distinct keys", "tested", "FPR", "model FPR", "add s", "add ns/row", "test ns/key"},
	}
	for _, p := range finalPoints(ps) {
		t.Rows = append(t.Rows, []string{p.Dist, p.Filter, fmtCount(p.M), fmt.Sprint(p.K), fmtCount(p.Rows), fmtCount(p.Distinct),
			fmtCount(p.Tested), fmtRate(p.FPR), fmtRate(p.ModelFPR), fmtSeconds(p.AddSeconds),
			fmtNs(p.AddSeconds * 1e9 / float64(max(p.Rows, 1))), fmtNs(p.TestNsPerKey)})
	}
	return t
}

// KSweepTables is experiment b: per data set, FPR and add time for every
// k and filter.
func KSweepTables(ps []experiment.StreamPoint) []Table {
	var dists, names []string
	for _, p := range ps {
		if !slices.Contains(dists, p.Dist) {
			dists = append(dists, p.Dist)
		}
		if !slices.Contains(names, p.Filter) {
			names = append(names, p.Filter)
		}
	}
	var ts []Table
	for _, dist := range dists {
		var sample experiment.StreamPoint
		byK := map[uint32]map[string]experiment.StreamPoint{}
		var ks []uint32
		for _, p := range ps {
			if p.Dist != dist {
				continue
			}
			if sample.Filter == "" {
				sample = p
			}
			if byK[p.K] == nil {
				byK[p.K] = map[string]experiment.StreamPoint{}
				ks = append(ks, p.K)
			}
			byK[p.K][p.Filter] = p
		}
		where := fmt.Sprintf("%s, %s rows (%s distinct), m = %s bits", dist, fmtCount(sample.Rows), fmtCount(sample.Distinct), fmtCount(sample.M))
		fpr := Table{
			Title:  "b. FPR against k: " + where,
			Note:   fmt.Sprintf("FPR on %s never-inserted values; '-' where a filter rejects that k; every point is in ksweep.csv.", fmtCount(sample.Tested)),
			Header: append([]string{"k"}, names...),
		}
		secs := Table{
			Title:  "b. Add time (seconds for all rows) against k: " + where,
			Note:   "Our filters add through their batch call (AddKeys), the peers key by key.",
			Header: append([]string{"k"}, names...),
		}
		for _, k := range ks {
			frow, srow := []string{fmt.Sprint(k)}, []string{fmt.Sprint(k)}
			for _, n := range names {
				frow = append(frow, cell(byK[k], n, func(p experiment.StreamPoint) string { return fmtRate(p.FPR) }))
				srow = append(srow, cell(byK[k], n, func(p experiment.StreamPoint) string { return fmtSeconds(p.AddSeconds) }))
			}
			fpr.Rows = append(fpr.Rows, frow)
			secs.Rows = append(secs.Rows, srow)
		}
		ts = append(ts, fpr, secs)
	}
	return ts
}

func cell(m map[string]experiment.StreamPoint, name string, f func(experiment.StreamPoint) string) string {
	p, ok := m[name]
	if !ok {
		return "-"
	}
	return f(p)
}

// SizedTable is experiment c, with each filter's per-key Test speed
// relative to bits-and-blooms/bloom/v3's per-key Test at the same n and
// p.
func SizedTable(rows []experiment.SizedRow) Table {
	t := Table{
		Title: "c. Filters sized for n keys at target p: 8-byte keys, per key and batch",
		Note: "m counts bits (counters for counting, cells for spatial; bits/key is the memory); ns/key are medians over the repetitions. " +
			"per key = one single-key call per []byte key (Add(key), Test(key), spatial Insert/Check), every filter alike; " +
			"batch = our families' batch calls (AddUint64s/TestUint64s, spatial InsertUint64s/CheckUint64s, hashing in batch), the peers' per-key loop (they have no batch API), BinaryFuse8 XXH3 + Contains per key. " +
			"Add inserts all n keys into a filter filled once untimed and Reset (no first-touch page faults timed; spatial has no Reset and BinaryFuse8 is built, so theirs are), Test member and Remove (counting filters, batch form) time the first min(n, tested) of them (false neg. counts over all n, before removal); FPR on distinct non-member keys; model = the filter's own prediction; " +
			"vs bloom/v3 = bloom/v3's per-key Test ns/key over this filter's per-key Test ns/key, same n and p, same run. Static filters are built once: their Add is the build (batch column only).",
		Header: []string{"filter", "n", "p", "m", "k", "bits/key", "Add ns/key per key", "Test member ns/key per key", "Test absent ns/key per key",
			"Add ns/key batch", "Test member ns/key batch", "Test absent ns/key batch", "Remove ns/key batch", "false neg.", "tested", "FPR", "model FPR",
			"Test member vs bloom/v3 (per key)", "Test absent vs bloom/v3 (per key)"},
	}
	ref := map[string]experiment.SizedRow{}
	for _, r := range rows {
		if r.Filter == "bloom/v3" {
			ref[fmt.Sprint(r.N, r.P)] = r
		}
	}
	for _, r := range rows {
		vsMember, vsAbsent := math.NaN(), math.NaN()
		if b, ok := ref[fmt.Sprint(r.N, r.P)]; ok {
			vsMember, vsAbsent = b.KeyTestMemberNs/r.KeyTestMemberNs, b.KeyTestAbsentNs/r.KeyTestAbsentNs
		}
		t.Rows = append(t.Rows, []string{r.Filter, fmtCount(r.N), fmt.Sprint(r.P), fmtCount(r.M), fmt.Sprint(r.K),
			fmt.Sprintf("%.2f", r.BitsPerKey), fmtNs(r.KeyAddNs), fmtNs(r.KeyTestMemberNs), fmtNs(r.KeyTestAbsentNs),
			fmtNs(r.AddNs), fmtNs(r.TestMemberNs), fmtNs(r.TestAbsentNs), fmtNs(r.RemoveNs),
			fmt.Sprint(r.FalseNegatives), fmtCount(r.Tested), fmtRate(r.FPR), fmtRate(r.ModelFPR), fmtRatio(vsMember), fmtRatio(vsAbsent)})
	}
	return t
}

// KernelTable is experiment d.
func KernelTable(rows []experiment.KernelRow) Table {
	t := Table{
		Title:  "d. Kernel levels against the generic (scalar Go) reference, p = 1%",
		Note:   "speed-up = generic ns/key over this level's (medians); same answers = member and non-member hits equal to generic's. asm.HashUint64s is the batch XXH3 of 8-byte keys alone (its ns/key in the Test member column; same answers = same hashes).",
		Header: []string{"filter", "n", "level", "Add ns/key", "Test member ns/key", "Test absent ns/key", "Add speed-up", "Test member speed-up", "Test absent speed-up", "same answers"},
	}
	for _, r := range rows {
		t.Rows = append(t.Rows, []string{r.Filter, fmtCount(r.N), r.Level, fmtNs(r.AddNs), fmtNs(r.TestMemberNs), fmtNs(r.TestAbsentNs),
			fmtRatio(r.AddSpeedup), fmtRatio(r.TestMemberSpeedup), fmtRatio(r.TestAbsentSpeedup), fmt.Sprint(r.SameAnswers)})
	}
	return t
}

// setsBaseline names each query's baseline in table f.
var setsBaseline = map[string]string{"association": experiment.SetsTwoClassic, "multiplicity": experiment.SetsCounting}

// SetsTable is experiment f, with each filter's query time relative to
// its baseline on the same keys.
func SetsTable(rows []experiment.SetsRow) Table {
	t := Table{
		Title: "f. Shifting association (ShBF_A) and multiplicity (ShBF_x) against their baselines",
		Note: "8-byte keys; ns/key (median over the repetitions) covers the batch hash (2x classic: one per filter's seed) and one scalar query per key, except '2x classic batch', which tests both filters with classic's batch kernel. " +
			"Association: S1 ∪ S2 of n keys, a third in S1 only, S2 only and both; shbf-a is NewAssociation(n, 1%), 2x classic two classic filters of half its bits each at its k (same total bits). " +
			"right rate = clear answers of members for shbf-a (a clear answer is never wrong), exact (in S1, in S2) of members for 2x classic, 'in neither' of non-members; " +
			"model: shbf-a ClearRate(n), (1 - CandidateFPR(n))^3 for non-members; classic 1 - engine.FPR of the filter that must say no. " +
			"Multiplicity: n keys with counts uniform in [1, max]; shbf-x is NewMultiplicity(n, 1%, max), counting a counting filter of the same bytes (4-bit counters while max <= 15) at the optimal k for its counters; " +
			"right rate = exact count (0 for non-members); model: shbf-x 1 - OverReportRate averaged over the counts, counting 1 - FPR(n) for non-members and none for members ('-', measured only). " +
			"violations = member answers without the key's outcome or 'neither' (shbf-a), false negatives (classic), counts below the truth (multiplicity): must be 0. vs baseline = baseline ns/key over this row's.",
		Header: []string{"query", "filter", "keys", "n", "max count", "k", "bits/key", "queried", "ns/key", "vs baseline", "right rate", "model", "violations"},
	}
	base := map[string]float64{}
	for _, r := range rows {
		if r.Filter == setsBaseline[r.Query] {
			base[r.Query+"/"+r.Keys] = r.Ns
		}
	}
	for _, r := range rows {
		vs := math.NaN()
		if b, ok := base[r.Query+"/"+r.Keys]; ok {
			vs = b / r.Ns
		}
		maxCount := "-"
		if r.MaxCount > 0 {
			maxCount = fmt.Sprint(r.MaxCount)
		}
		t.Rows = append(t.Rows, []string{r.Query, r.Filter, r.Keys, fmtCount(r.N), maxCount, fmt.Sprint(r.K), fmt.Sprintf("%.2f", r.BitsPerKey()),
			fmtCount(r.Queried), fmtNs(r.Ns), fmtRatio(vs), fmtRate(r.Rate), fmtRate(r.ModelRate), fmt.Sprint(r.Wrong)})
	}
	return t
}
