package plots

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"

	"github.com/filterengine/filterengine/bench/experiment"
)

// A 2.8 ns bar and a 749 ns bar share the axis: it spans the decades
// around them on a log scale, labelled at 1, 2 and 5 times each power of
// ten.
func TestLogAxis(t *testing.T) {
	p := plot.New()
	if !logAxis(&p.Y, 2.8, 749) {
		t.Fatal("logAxis refused positive bounds")
	}
	if _, ok := p.Y.Scale.(plot.LogScale); !ok {
		t.Errorf("scale %T, want plot.LogScale", p.Y.Scale)
	}
	if p.Y.Min != 1 || p.Y.Max != 1000 {
		t.Errorf("axis [%v, %v], want [1, 1000]", p.Y.Min, p.Y.Max)
	}
	var labels []string
	for _, tk := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if want := []string{"1", "2", "5", "10", "20", "50", "100", "200", "500", "1000"}; !slices.Equal(labels, want) {
		t.Errorf("labels %v, want %v", labels, want)
	}
	// Nothing positive: the axis stays linear (a log axis cannot show 0).
	q := plot.New()
	if lo, hi := positiveRange([]float64{0, math.NaN(), -1}); logAxis(&q.Y, lo, hi) {
		t.Error("logAxis accepted a range without a positive value")
	}
	if _, ok := q.Y.Scale.(plot.LogScale); ok {
		t.Error("axis became logarithmic without a positive value")
	}
}

func TestPositiveRange(t *testing.T) {
	lo, hi := positiveRange([]float64{math.NaN(), 0, 3, -2, 749, 2.8, math.Inf(1)})
	if lo != 2.8 || hi != 749 {
		t.Errorf("positiveRange = %v, %v; want 2.8, 749", lo, hi)
	}
}

// results is one row of every experiment with an ns/key or throughput
// plot.
func results() *experiment.Results {
	sized := []experiment.SizedRow{
		{Filter: "blocked", Ours: true, N: 1000, P: 0.01, KeyAddNs: 15, KeyTestMemberNs: 16, KeyTestAbsentNs: 16, AddNs: 3, TestMemberNs: 2.8, TestAbsentNs: 2.9},
		{Filter: "bloom/v3", N: 1000, P: 0.01, KeyAddNs: 150, KeyTestMemberNs: 749, KeyTestAbsentNs: 90, AddNs: 151, TestMemberNs: 750, TestAbsentNs: 91},
		{Filter: "xor/binaryfuse8", N: 1000, P: 0.01, KeyAddNs: math.NaN(), KeyTestMemberNs: 10, KeyTestAbsentNs: 10, AddNs: 140, TestMemberNs: 9, TestAbsentNs: 9},
	}
	cache := []experiment.CacheRow{
		{Filter: "blocked", Ours: true, N: 1e4, Held: 1e4, Bytes: 12_544, KeyTestMemberNs: 15, TestMemberNs: 2.5, KeyTestAbsentNs: 15, TestAbsentNs: 2.5},
		{Filter: "blocked", Ours: true, N: 1e8, Held: 1e7, Bytes: 124_999_936, KeyTestMemberNs: 90, TestMemberNs: 9, KeyTestAbsentNs: math.NaN(), TestAbsentNs: math.NaN()},
		{Filter: "bloom/v3", N: 1e4, Held: 1e4, Bytes: 11_982, KeyTestMemberNs: 60, TestMemberNs: math.NaN(), KeyTestAbsentNs: 60, TestAbsentNs: math.NaN()},
	}
	var threads []experiment.ThreadsRow
	for _, g := range []int{1, 2, 4} {
		threads = append(threads, experiment.ThreadsRow{Family: experiment.ThreadsBaseline, Op: experiment.ThreadsHash, Call: "engine.Hash", N: 1e6, Goroutines: g, CPUs: 2, MaxProcs: 2, MKeysPerSec: 200})
		for _, op := range []string{experiment.ThreadsAdd, experiment.ThreadsTest} {
			threads = append(threads, experiment.ThreadsRow{Family: "blocked", Op: op, Call: "AddConcurrent", N: 1e6, Goroutines: g, CPUs: 2, MaxProcs: 2, MKeysPerSec: 40 * float64(min(g, 2))})
		}
	}
	return &experiment.Results{
		Sized: sized, Cache: cache, Threads: threads,
		Sets: []experiment.SetsRow{{Query: "association", Filter: "shbf-a", Keys: "both", N: 1000, Ns: 19}, {Query: "association", Filter: "2x classic", Keys: "both", N: 1000, Ns: 25}},
	}
}

// Every plot of ns/key (or of throughput, which spans as many decades)
// has a log value axis.
func TestNsPlotsUseLogAxis(t *testing.T) {
	figs := figures(results())
	var names []string
	for _, f := range figs {
		if f.err != nil {
			t.Fatalf("%s: %v", f.name, f.err)
		}
		names = append(names, f.name)
		if y := f.p.Y.Label.Text; strings.Contains(y, "ns/key") || strings.Contains(y, "Mkeys/s") {
			if _, ok := f.p.Y.Scale.(plot.LogScale); !ok || !strings.Contains(y, "log") {
				t.Errorf("%s: y axis %q on %T, want a log scale that says so", f.name, y, f.p.Y.Scale)
			}
		}
	}
	for _, want := range []string{"c_nskey_n1e3_p0.01", "f_nskey", "n_test_member", "n_test_absent", "t_add", "t_test"} {
		if !slices.Contains(names, want) {
			t.Errorf("no figure %s among %v", want, names)
		}
	}
	// Every figure draws and saves.
	dir := t.TempDir()
	files, err := WriteAll(dir, results())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// c plots: every filter has its per-key bars; only ours have batch bars
// (a peer's "batch" is its per-key loop, a static filter's Add its
// construction).
func TestSizedBarsBatchOnlyForOurs(t *testing.T) {
	for _, r := range results().Sized {
		for i, s := range sizedSeries {
			v := sizedBar(r, i)
			batch := strings.Contains(s.name, "batch")
			switch {
			case batch && !r.Ours && !math.IsNaN(v):
				t.Errorf("%s has a %q bar (%v)", r.Filter, s.name, v)
			case batch && r.Ours && !(v > 0):
				t.Errorf("%s has no %q bar", r.Filter, s.name)
			case !batch && !(v > 0) && !(r.Filter == "xor/binaryfuse8" && strings.HasPrefix(s.name, "Add")):
				t.Errorf("%s has no %q bar", r.Filter, s.name)
			}
		}
	}
	for _, s := range sizedSeries {
		if !strings.Contains(s.name, "per key") && !strings.Contains(s.name, "batch") {
			t.Errorf("series %q says neither per key nor batch", s.name)
		}
	}
}

// The throughput plots say how many CPUs the machine has.
func TestThreadsPlotNamesCPUs(t *testing.T) {
	f := threadsThroughput(results().Threads, experiment.ThreadsTest)
	if f.err != nil {
		t.Fatal(f.err)
	}
	if !strings.Contains(f.p.Title.Text, "2 CPUs: beyond 2 goroutines no more cores") {
		t.Errorf("title %q does not say the machine has 2 CPUs", f.p.Title.Text)
	}
}

func TestSizeLabel(t *testing.T) {
	for b, want := range map[uint64]string{12_544: "12.5 KB", 1_250_000: "1.25 MB", 124_999_936: "125 MB", 512: "512 B", 3e9: "3 GB"} {
		if got := sizeLabel(b); got != want {
			t.Errorf("sizeLabel(%d) = %q, want %q", b, got, want)
		}
	}
}
