package report

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/bench/experiment"
)

func cacheRows() []experiment.CacheRow {
	return []experiment.CacheRow{
		{Filter: "blocked", Ours: true, N: 1e4, Held: 1e4, Bytes: 12_544, Sampled: 1000, AddNs: 3, AddForm: experiment.FormBatch,
			KeyTestMemberNs: 15, TestMemberNs: 2.5, KeyTestAbsentNs: 16, TestAbsentNs: 2.6, FPR: 0.01},
		{Filter: "bloom/v3", N: 1e4, Held: 1e4, Bytes: 11_982, Sampled: 1000, AddNs: 70, AddForm: experiment.FormPerKey,
			KeyTestMemberNs: 60, TestMemberNs: math.NaN(), KeyTestAbsentNs: 61, TestAbsentNs: math.NaN(), FPR: 0.01},
		{Filter: "blocked", Ours: true, N: 1e8, Held: 1e7, Bytes: 124_999_936, Sampled: 1000, AddNs: 6, AddForm: experiment.FormBatch,
			KeyTestMemberNs: 90, TestMemberNs: 9, KeyTestAbsentNs: math.NaN(), TestAbsentNs: math.NaN(), FPR: math.NaN()},
	}
}

// Table n: a row per filter and n, every ns/key column says per key or
// batch, a peer's batch columns and a partly filled filter's absent
// columns are '-'.
func TestCacheTableShape(t *testing.T) {
	tab := CacheTable(cacheRows())
	if len(tab.Rows) != 3 {
		t.Fatalf("%d rows", len(tab.Rows))
	}
	col := func(name string) int {
		i := slices.Index(tab.Header, name)
		if i < 0 {
			t.Fatalf("no column %q in %v", name, tab.Header)
		}
		return i
	}
	for _, h := range tab.Header {
		if strings.Contains(h, "ns/key") && h != "Add ns/key" && !strings.Contains(h, "per key") && !strings.Contains(h, "batch") {
			t.Errorf("column %q does not say per key or batch", h)
		}
	}
	for _, r := range tab.Rows {
		if len(r) != len(tab.Header) {
			t.Fatalf("row %v has %d cells for %d columns", r, len(r), len(tab.Header))
		}
	}
	if got := tab.Rows[1][col("Test member ns/key batch")]; got != "-" {
		t.Errorf("bloom/v3 batch member = %q, want -", got)
	}
	if got := tab.Rows[0][col("batch speed-up (member)")]; got != "6.00x" {
		t.Errorf("blocked batch speed-up = %q, want 6.00x", got)
	}
	if got := []string{tab.Rows[2][col("held")], tab.Rows[2][col("Test absent ns/key per key")], tab.Rows[2][col("FPR")]}; !slices.Equal(got, []string{"10,000,000", "-", "-"}) {
		t.Errorf("partly filled row: held, absent, FPR = %v", got)
	}
	if got := tab.Rows[2][col("MB")]; got != "125.00" {
		t.Errorf("MB = %q", got)
	}
}

// Table t says how many CPUs the machine has and gives each row's
// speed-up over one goroutine.
func TestThreadsTableSaysCores(t *testing.T) {
	var rows []experiment.ThreadsRow
	for _, g := range []int{1, 2, 8} {
		rows = append(rows,
			experiment.ThreadsRow{Family: "blocked", Op: experiment.ThreadsAdd, Call: "AddConcurrent", N: 1000, Goroutines: g, CPUs: 2, MaxProcs: 2, MKeysPerSec: 10 * float64(min(g, 2))},
			experiment.ThreadsRow{Family: "blocked", Op: experiment.ThreadsTest, Call: "TestConcurrent", N: 1000, Goroutines: g, CPUs: 2, MaxProcs: 2, MKeysPerSec: 30})
	}
	tab := ThreadsTable(rows)
	if !strings.Contains(tab.Title, "2 CPUs: beyond 2 goroutines there are no more cores") || !strings.Contains(tab.Note, "This machine has 2 CPUs") {
		t.Errorf("title %q / note %q do not say the machine has 2 CPUs", tab.Title, tab.Note)
	}
	x := slices.Index(tab.Header, "x 1 goroutine")
	if got := []string{tab.Rows[0][x], tab.Rows[2][x], tab.Rows[4][x], tab.Rows[5][x]}; !slices.Equal(got, []string{"1.00x", "2.00x", "2.00x", "1.00x"}) {
		t.Errorf("speed-ups %v", got)
	}
	fn := slices.Index(tab.Header, "false neg.")
	if tab.Rows[0][fn] != "-" || tab.Rows[1][fn] != "0" {
		t.Errorf("false neg. add %q, test %q; want - and 0", tab.Rows[0][fn], tab.Rows[1][fn])
	}
}

// The CSV files hold the same rows as the tables.
func TestWriteCSVCacheAndThreads(t *testing.T) {
	r := &experiment.Results{Cache: cacheRows(), Threads: []experiment.ThreadsRow{{Family: "counting", Op: "add", Call: "Add (atomic)", N: 10, Goroutines: 4, CPUs: 2, MaxProcs: 2, MKeysPerSec: 12.5}}}
	dir := t.TempDir()
	paths, err := WriteCSV(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, CSVFiles["n"]), filepath.Join(dir, CSVFiles["t"])}; !slices.Equal(paths, want) {
		t.Fatalf("WriteCSV wrote %v, want %v", paths, want)
	}
	n, _ := os.ReadFile(paths[0])
	if lines := strings.Split(strings.TrimSpace(string(n)), "\n"); len(lines) != 4 || !strings.HasPrefix(lines[3], "blocked,true,100000000,0,10000000,") {
		t.Errorf("cache.csv = %q", n)
	}
	th, _ := os.ReadFile(paths[1])
	if lines := strings.Split(strings.TrimSpace(string(th)), "\n"); len(lines) != 2 || lines[1] != "counting,add,Add (atomic),10,4,2,2,12.5,0" {
		t.Errorf("threads.csv = %q", th)
	}
}
