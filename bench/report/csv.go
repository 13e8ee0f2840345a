package report

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/filterengine/filterengine/bench/experiment"
)

// CSVFiles names the CSV file of each experiment.
var CSVFiles = map[string]string{"a": "stream.csv", "b": "ksweep.csv", "c": "sized.csv", "d": "kernels.csv", "f": "sets.csv", "r": "retouched.csv", "r-dynamic": "dynamic.csv", "s": "growth.csv", "g": "formats_parquet.csv", "g-kv": "formats_kv.csv", "g-clickhouse": "formats_clickhouse.csv", "n": "cache.csv", "t": "threads.csv"}

func g(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// WriteCSV writes one CSV file per experiment that has results into dir,
// at full precision, and returns the paths written.
func WriteCSV(dir string, r *experiment.Results) ([]string, error) {
	var paths []string
	write := func(name string, header []string, rows [][]string) error {
		if len(rows) == 0 {
			return nil
		}
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		w := csv.NewWriter(f)
		w.Write(header)
		w.WriteAll(rows)
		if err := w.Error(); err != nil {
			f.Close()
			return err
		}
		paths = append(paths, path)
		return f.Close()
	}
	pointHeader := []string{"dist", "filter", "m", "k", "rows", "distinct", "tested", "false_positives", "fpr", "model_fpr", "add_seconds", "test_ns_per_key"}
	points := func(ps []experiment.StreamPoint) [][]string {
		var out [][]string
		for _, p := range ps {
			out = append(out, []string{p.Dist, p.Filter, fmt.Sprint(p.M), fmt.Sprint(p.K), fmt.Sprint(p.Rows), fmt.Sprint(p.Distinct),
				fmt.Sprint(p.Tested), fmt.Sprint(p.FalsePositives), g(p.FPR), g(p.ModelFPR), g(p.AddSeconds), g(p.TestNsPerKey)})
		}
		return out
	}
	if err := write(CSVFiles["a"], pointHeader, points(r.Stream)); err != nil {
		return paths, err
	}
	if err := write(CSVFiles["b"], pointHeader, points(r.KSweep)); err != nil {
		return paths, err
	}
	var sized [][]string
	for _, s := range r.Sized {
		sized = append(sized, []string{s.Filter, fmt.Sprint(s.N), g(s.P), fmt.Sprint(s.M), fmt.Sprint(s.K), fmt.Sprint(s.Bytes), g(s.BitsPerKey),
			g(s.AddNs), g(s.TestMemberNs), g(s.TestAbsentNs), g(s.KeyAddNs), g(s.KeyTestMemberNs), g(s.KeyTestAbsentNs), g(s.RemoveNs), fmt.Sprint(s.Removed), fmt.Sprint(s.FalseNegatives), fmt.Sprint(s.Tested), fmt.Sprint(s.FalsePositives), g(s.FPR), g(s.ModelFPR)})
	}
	if err := write(CSVFiles["c"], []string{"filter", "n", "p", "m", "k", "bytes", "bits_per_key", "batch_add_ns_per_key", "batch_test_member_ns_per_key",
		"batch_test_absent_ns_per_key", "per_key_add_ns_per_key", "per_key_test_member_ns_per_key", "per_key_test_absent_ns_per_key", "remove_ns_per_key", "removed", "false_negatives", "tested", "false_positives", "fpr", "model_fpr"}, sized); err != nil {
		return paths, err
	}
	var kernels [][]string
	for _, k := range r.Kernels {
		kernels = append(kernels, []string{k.Filter, fmt.Sprint(k.N), k.Level, g(k.AddNs), g(k.TestMemberNs), g(k.TestAbsentNs),
			g(k.AddSpeedup), g(k.TestMemberSpeedup), g(k.TestAbsentSpeedup), fmt.Sprint(k.MemberHits), fmt.Sprint(k.AbsentHits), fmt.Sprint(k.SameAnswers)})
	}
	if err := write(CSVFiles["d"], []string{"filter", "n", "level", "add_ns_per_key", "test_member_ns_per_key", "test_absent_ns_per_key",
		"add_speedup", "test_member_speedup", "test_absent_speedup", "member_hits", "absent_hits", "same_answers"}, kernels); err != nil {
		return paths, err
	}
	var sets [][]string
	for _, s := range r.Sets {
		sets = append(sets, []string{s.Query, s.Filter, s.Keys, fmt.Sprint(s.N), fmt.Sprint(s.MaxCount), fmt.Sprint(s.K), fmt.Sprint(s.Bytes), g(s.BitsPerKey()),
			fmt.Sprint(s.Queried), g(s.Ns), g(s.Rate), g(s.ModelRate), fmt.Sprint(s.Wrong)})
	}
	if err := write(CSVFiles["f"], []string{"query", "filter", "keys", "n", "max_count", "k", "bytes", "bits_per_key",
		"queried", "ns_per_key", "right_rate", "model_right_rate", "violations"}, sets); err != nil {
		return paths, err
	}
	if err := writeRetouchedCSV(write, r); err != nil {
		return paths, err
	}
	if err := writeGrowthCSV(write, r.Growth); err != nil {
		return paths, err
	}
	if err := writeFormatsParquetCSV(write, r.FormatsParquet); err != nil {
		return paths, err
	}
	if err := writeFormatsKVCSV(write, r.FormatsKV); err != nil {
		return paths, err
	}
	if err := writeFormatsClickHouseCSV(write, r.FormatsClickHouse); err != nil {
		return paths, err
	}
	if err := writeCacheCSV(write, r.Cache); err != nil {
		return paths, err
	}
	err := writeThreadsCSV(write, r.Threads)
	return paths, err
}
