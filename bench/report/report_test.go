package report

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/bench/experiment"
)

func TestFormats(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{fmtRate(math.NaN()), "-"},
		{fmtRate(0), "0"},
		{fmtRate(0.0123456), "0.0123"},
		{fmtRate(0.000123), "1.230e-04"},
		{fmtCount(1234567), "1,234,567"},
		{fmtCount(12), "12"},
		{fmtRatio(3.14159), "3.14x"},
		{fmtRatio(math.Inf(1)), "-"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestMarkdownTableShape(t *testing.T) {
	var buf bytes.Buffer
	Table{Title: "T", Header: []string{"a", "b"}, Rows: [][]string{{"1", "2"}, {"3", "4"}}}.WriteMarkdown(&buf)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	want := []string{"### T", "", "| a | b |", "|---|---:|", "| 1 | 2 |", "| 3 | 4 |"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("markdown:\n%s\nwant:\n%s", buf.String(), strings.Join(want, "\n"))
	}
}

func TestSizedTableComparesWithBloomV3(t *testing.T) {
	rows := []experiment.SizedRow{
		{Filter: "classic", N: 10, P: 0.01, TestMemberNs: 1, TestAbsentNs: 1, KeyTestMemberNs: 10, KeyTestAbsentNs: 4},
		{Filter: "bloom/v3", N: 10, P: 0.01, TestMemberNs: 50, TestAbsentNs: 10, KeyTestMemberNs: 50, KeyTestAbsentNs: 10},
		{Filter: "classic", N: 20, P: 0.01, TestMemberNs: 1, TestAbsentNs: 1, KeyTestMemberNs: 10, KeyTestAbsentNs: 4},
	}
	tab := SizedTable(rows)
	last := len(tab.Header) - 1
	if got := tab.Rows[0][last-1]; got != "5.00x" {
		t.Errorf("classic vs bloom/v3 on members = %q, want 5.00x", got)
	}
	if got := tab.Rows[0][last]; got != "2.50x" {
		t.Errorf("classic vs bloom/v3 on non-members = %q, want 2.50x", got)
	}
	if got := tab.Rows[2][last]; got != "-" {
		t.Errorf("without bloom/v3 at that n: %q, want -", got)
	}
	// Every ns/key column says whether it is per key or batch.
	for _, h := range tab.Header {
		if strings.Contains(h, "ns/key") && !strings.Contains(h, "per key") && !strings.Contains(h, "batch") {
			t.Errorf("column %q does not say per key or batch", h)
		}
	}
}

func TestFinalPoints(t *testing.T) {
	ps := []experiment.StreamPoint{
		{Dist: "normal", Filter: "a", Rows: 1}, {Dist: "normal", Filter: "a", Rows: 2},
		{Dist: "normal", Filter: "b", Rows: 2}, {Dist: "uniform", Filter: "a", Rows: 2},
	}
	got := finalPoints(ps)
	if len(got) != 3 || got[0].Rows != 2 {
		t.Errorf("finalPoints = %+v", got)
	}
}

func TestFormatsKVTableComparesWithPeer(t *testing.T) {
	rows := []experiment.FormatsKVRow{
		{Format: "leveldb", Impl: "filterengine", N: 10, BuildNs: 10, MemberNs: 10, AbsentNs: 5, SameBytes: true},
		{Format: "leveldb", Impl: "goleveldb", N: 10, BuildNs: 30, MemberNs: 15, AbsentNs: 20, SameBytes: true},
	}
	tab := FormatsKVTable(rows)
	last := len(tab.Header) - 1
	if got := []string{tab.Rows[0][last-2], tab.Rows[0][last-1], tab.Rows[0][last]}; got[0] != "3.00x" || got[1] != "1.50x" || got[2] != "4.00x" {
		t.Errorf("speedups = %v, want 3.00x 1.50x 4.00x", got)
	}
	if got := tab.Rows[1][last]; got != "-" {
		t.Errorf("the peer's own row shows a speedup %q", got)
	}
}

// Experiment s: BoomFilters has no batch call, so only per-key rows carry
// a ratio against its per-key Test.
func TestGrowthTableComparesPerKeyWithBoom(t *testing.T) {
	rows := []experiment.GrowthRow{
		{Group: experiment.GrowthScalable, Filter: "ours", Mode: experiment.GrowthBatch, N: 10, Ns: 2},
		{Group: experiment.GrowthScalable, Filter: "ours", Mode: experiment.GrowthPerKey, N: 10, Ns: 10},
		{Group: experiment.GrowthScalable, Filter: experiment.GrowthBoom, Mode: experiment.GrowthPerKey, N: 10, Ns: 30},
	}
	tab := GrowthTable(rows)
	col := slices.Index(tab.Header, "boom per key")
	if col < 0 {
		t.Fatalf("no boom per key column in %v", tab.Header)
	}
	if got := []string{tab.Rows[0][col], tab.Rows[1][col]}; got[0] != "-" || got[1] != "3.00x" {
		t.Errorf("boom per key = %v, want - (batch row) and 3.00x", got)
	}
}

// Experiment s's window rows at two generation sizes are each divided by
// the single filter of their own size.
func TestGrowthTableWindowSizes(t *testing.T) {
	rows := []experiment.GrowthRow{
		{Group: experiment.GrowthWindow, Filter: "window", Mode: experiment.GrowthBatch, N: 40, Generation: 10, Ns: 6},
		{Group: experiment.GrowthWindow, Filter: experiment.GrowthSingle, Mode: experiment.GrowthBatch, N: 10, Generation: 10, Ns: 3},
		{Group: experiment.GrowthWindow, Filter: "window", Mode: experiment.GrowthBatch, N: 400, Generation: 100, Ns: 12},
		{Group: experiment.GrowthWindow, Filter: experiment.GrowthSingle, Mode: experiment.GrowthBatch, N: 100, Generation: 100, Ns: 8},
	}
	tab := GrowthTable(rows)
	col := slices.Index(tab.Header, "x single")
	if got := []string{tab.Rows[0][col], tab.Rows[2][col]}; got[0] != "2.00x" || got[1] != "1.50x" {
		t.Errorf("x single = %v, want 2.00x and 1.50x", got)
	}
}

// Every experiment with rows gets its CSV file: experiment g writes its
// Parquet and its LevelDB/Pebble rows.
func TestWriteCSVFormats(t *testing.T) {
	r := &experiment.Results{
		FormatsParquet: []experiment.FormatsParquetRow{{Op: "test", Impl: experiment.ParquetArrowCheck, N: 10, Ratio: math.NaN()}},
		FormatsKV:      []experiment.FormatsKVRow{{Format: "leveldb", Impl: "filterengine", N: 10, BuildNs: 1.5}},
	}
	dir := t.TempDir()
	paths, err := WriteCSV(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, CSVFiles["g"]), filepath.Join(dir, CSVFiles["g-kv"])}
	if !slices.Equal(paths, want) {
		t.Fatalf("WriteCSV wrote %v, want %v", paths, want)
	}
	kv, err := os.ReadFile(want[1])
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(string(kv)), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[1], "leveldb,filterengine,10,") {
		t.Errorf("formats_kv.csv = %q", kv)
	}
}

// The ClickHouse rows get their table (ratio on the batch row only) and
// their own CSV file.
func TestFormatsClickHouseTableAndCSV(t *testing.T) {
	rows := []experiment.FormatsClickHouseRow{
		{Op: "test", Index: "bloom_filter(0.01)", Data: "UInt64", Impl: "Select", Rows: 256, Granules: 512, Tokens: 64,
			NsPerToken: 2, Peer: "MayContainUint64", Ratio: 3, Kept: 40, SameBytes: true},
		{Op: "test", Index: "bloom_filter(0.01)", Data: "UInt64", Impl: "MayContainUint64", Rows: 256, Granules: 512, Tokens: 64,
			NsPerToken: 6, Ratio: math.NaN(), Kept: 40, SameBytes: true},
	}
	tab := FormatsClickHouseTable(rows)
	if len(tab.Rows) != 2 || tab.Rows[0][10] != "3.00x" || tab.Rows[1][10] != "-" || tab.Rows[0][8] != "2.00" || tab.Rows[0][12] != "0" || tab.Rows[1][12] != "" {
		t.Errorf("table rows %q", tab.Rows)
	}
	dir := t.TempDir()
	paths, err := WriteCSV(dir, &experiment.Results{FormatsClickHouse: rows})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, CSVFiles["g-clickhouse"])}; !slices.Equal(paths, want) {
		t.Fatalf("WriteCSV wrote %v, want %v", paths, want)
	}
	data, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(string(data)), "\n"); len(lines) != 3 || lines[1] != "test,bloom_filter(0.01),UInt64,Select,256,512,64,0,2,MayContainUint64,3,40,0,true" {
		t.Errorf("formats_clickhouse.csv = %q", data)
	}
}
