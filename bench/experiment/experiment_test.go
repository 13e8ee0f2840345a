package experiment

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/bench/dataset"
	"github.com/filterengine/filterengine/bench/filters"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/cpulevel"
	"github.com/filterengine/filterengine/internal/testkit/fprstat"
)

func TestCheckpoints(t *testing.T) {
	if got := checkpoints(100, 4); !slices.Equal(got, []int{25, 50, 75, 100}) {
		t.Errorf("checkpoints(100, 4) = %v", got)
	}
	if got := checkpoints(3, 10); !slices.Equal(got, []int{1, 2, 3}) {
		t.Errorf("checkpoints(3, 10) = %v", got)
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestParseExperiments(t *testing.T) {
	all, err := ParseExperiments("")
	if err != nil || len(all) != len(Names) {
		t.Errorf("ParseExperiments(\"\") = %v, %v", all, err)
	}
	if got, err := ParseExperiments("c, a"); err != nil || !got["a"] || !got["c"] || got["b"] {
		t.Errorf("ParseExperiments(c, a) = %v, %v", got, err)
	}
	if _, err := ParseExperiments("a,e"); err == nil {
		t.Error("ParseExperiments accepted e")
	}
}

func TestStreamBitsScaleWithRows(t *testing.T) {
	c := Config{Rows: dataset.SeedRows / 100, KRows: dataset.SeedRows / 1000}
	if got := c.StreamBits(); got != dataset.SeedBits/100 {
		t.Errorf("StreamBits at 1e6 rows = %d, want %d", got, dataset.SeedBits/100)
	}
	if got := c.KBits(); got != dataset.SeedBits/1000 {
		t.Errorf("KBits = %d, want %d", got, dataset.SeedBits/1000)
	}
	c.Bits = 12345
	if c.StreamBits() != 12345 {
		t.Errorf("StreamBits ignores Bits")
	}
}

func smallConfig(t *testing.T, exps string) Config {
	t.Helper()
	es, err := ParseExperiments(exps)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := filters.Select("classic,bloom/v3,xor/binaryfuse8")
	if err != nil {
		t.Fatal(err)
	}
	return Config{
		Experiments: es, Entries: entries, Dists: []dataset.Distribution{dataset.Uniform},
		Rows: 20_000, Bits: 200_000, K: 10, Checkpoints: 4, Probes: 20_000,
		KRows: 10_000, KMin: 2, KMax: 4,
		Sized: []Cell{{10_000, 0.01}}, SizedProbes: 20_000, KernelN: []uint64{10_000},
		SetsN: 9_000, SetsMaxCount: 15,
		Reps: 2, Batch: 1000,
	}
}

// A small run of every experiment fills every result with the expected
// shape, and every member is found.
func TestRunShapes(t *testing.T) {
	r, err := Run(context.Background(), smallConfig(t, "all"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Interrupted {
		t.Fatal("uncancelled run reports an interruption")
	}
	// a and b: classic and bloom/v3 have (m, k); binaryfuse8 is noted.
	if len(r.Stream) != 2*4 {
		t.Errorf("a: %d points, want 8", len(r.Stream))
	}
	if len(r.KSweep) != 2*3 {
		t.Errorf("b: %d points, want 6", len(r.KSweep))
	}
	for _, p := range r.Stream {
		if p.Distinct <= 0 || p.Distinct > p.Rows || p.AddSeconds <= 0 {
			t.Errorf("a: implausible point %+v", p)
		}
	}
	if len(r.Sized) != 3 {
		t.Errorf("c: %d rows, want 3", len(r.Sized))
	}
	for _, s := range r.Sized {
		if s.FalseNegatives != 0 || s.AddNs <= 0 || s.TestMemberNs <= 0 || s.Tested != 20_000 {
			t.Errorf("c: implausible row %+v", s)
		}
		// The per-key pass ran too (a static filter has no per-key Add).
		if !(s.KeyTestMemberNs > 0 && s.KeyTestAbsentNs > 0 && (s.KeyAddNs > 0 || math.IsNaN(s.KeyAddNs))) {
			t.Errorf("c: %s: no per-key timings: %+v", s.Filter, s)
		}
	}
	if want := 2 * len(cpulevel.Available()); len(r.Kernels) != want {
		t.Errorf("d: %d rows, want one per level for the hash and for classic (%d)", len(r.Kernels), want)
	}
	for _, k := range r.Kernels {
		if !k.SameAnswers {
			t.Errorf("d: level %s answers differently from generic: %+v", k.Level, k)
		}
	}
	checkSets(t, r.Sets, 9_000, 20_000)
	if len(r.Notes) == 0 {
		t.Error("no note says binaryfuse8 was left out of a and b")
	}
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := Run(ctx, smallConfig(t, "all"))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Interrupted {
		t.Error("cancelled run does not report the interruption")
	}
	if len(r.Stream) != 0 {
		t.Errorf("cancelled run measured %d points", len(r.Stream))
	}
}

// Binary keys (the 8 bytes of each float64) stream through the same
// path; classic's FPR after every checkpoint stays inside the binomial
// range of its model for the distinct keys inserted, at 99.9% for the 12
// checkpoints together (Bonferroni).
func TestStreamBinaryKeys(t *testing.T) {
	c := smallConfig(t, "a")
	c.Format = dataset.Binary
	c.Dists = dataset.Distributions
	r, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Stream) != 3*2*4 {
		t.Fatalf("%d points, want 24", len(r.Stream))
	}
	const checks = 3 * 4
	z := math.Sqrt2 * math.Erfinv(1-0.001/checks)
	for _, p := range r.Stream {
		if p.Filter != "classic" {
			continue
		}
		model := engine.FPR(p.M, uint64(p.Distinct), p.K)
		lo, hi := fprstat.BinomialBounds(uint64(p.Tested), model, z)
		if fp := float64(p.FalsePositives); fp < lo || fp > hi {
			t.Errorf("%s rows %d: %v false positives, model %v allows [%.0f, %.0f]", p.Dist, p.Rows, fp, model, lo, hi)
		}
	}
}

// checkSets asserts experiment f's shape: every filter on every key
// class, each key queried, and no contract violation — in particular no
// multiplicity answer below the true count.
func checkSets(t *testing.T, rows []SetsRow, n uint64, probes int) {
	t.Helper()
	want := map[string]int{}
	for _, f := range []string{SetsShBFA, SetsTwoClassic, SetsTwoClassicKern} {
		for _, k := range []string{KeysS1Only, KeysS2Only, KeysBoth} {
			want["association/"+f+"/"+k] = int(n) / 3
		}
		want["association/"+f+"/"+KeysAbsent] = probes
	}
	for _, f := range []string{SetsShBFX, SetsCounting} {
		want["multiplicity/"+f+"/"+KeysMembers] = int(n)
		want["multiplicity/"+f+"/"+KeysAbsent] = probes
	}
	if len(rows) != len(want) {
		t.Errorf("f: %d rows, want %d", len(rows), len(want))
	}
	// Baselines at the memory of the structure they are compared with.
	bytes := map[string]uint64{}
	for _, r := range rows {
		bytes[r.Filter] = r.Bytes
	}
	for base, of := range map[string]string{SetsTwoClassic: SetsShBFA, SetsCounting: SetsShBFX} {
		if ratio := float64(bytes[base]) / float64(bytes[of]); ratio < 0.9 || ratio > 1.1 {
			t.Errorf("f: %s has %d bytes, %s %d: not the same memory", base, bytes[base], of, bytes[of])
		}
	}
	for _, r := range rows {
		q, ok := want[r.Query+"/"+r.Filter+"/"+r.Keys]
		if !ok {
			t.Errorf("f: unexpected row %+v", r)
			continue
		}
		if r.Queried != q || !(r.Ns > 0) || r.Bytes == 0 || !(r.Rate > 0 && r.Rate <= 1) {
			t.Errorf("f: implausible row %+v (want %d queried)", r, q)
		}
		if r.Wrong != 0 {
			t.Errorf("f: %s %s on %s: %d violations (answers without the true outcome, false negatives or counts below the truth)", r.Query, r.Filter, r.Keys, r.Wrong)
		}
	}
}

// The multiplicity filter's answers are checked against the true counts:
// a count below the truth is counted as a violation, and the exact-count
// rate sits near the model's.
func TestSetsMultiplicityNeverUnderReports(t *testing.T) {
	c := smallConfig(t, "f")
	c.SetsN, c.SetsMaxCount = 30_000, 57
	r, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	checkSets(t, r.Sets, c.SetsN, c.SizedProbes)
	for _, row := range r.Sets {
		if row.Query != "multiplicity" || row.Filter != SetsShBFX || row.Keys != KeysMembers {
			continue
		}
		exact := uint64(math.Round(row.Rate * float64(row.Queried)))
		lo, hi := fprstat.BinomialBounds(uint64(row.Queried), row.ModelRate, fprstat.Z999)
		if float64(exact) < lo || float64(exact) > hi {
			t.Errorf("shbf-x: %d exact counts of %d, model %v allows [%.0f, %.0f]", exact, row.Queried, row.ModelRate, lo, hi)
		}
	}
}

func TestMultiplicityCountsInRange(t *testing.T) {
	seen := map[uint32]bool{}
	for _, c := range multiplicityCounts(10_000, 16) {
		if c < 1 || c > 16 {
			t.Fatalf("count %d outside [1, 16]", c)
		}
		seen[c] = true
	}
	if len(seen) != 16 {
		t.Errorf("counts cover %d of 16 values", len(seen))
	}
}

// span hands every index of [0, n) to f exactly once, in batches of at
// most d.batch with the tail last, sums f's hits, and stops before the
// first batch once the context is cancelled.
func TestSpan(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 17} {
		d := &driver{ctx: context.Background(), batch: 8}
		seen := make([]int, n)
		hits, _, err := d.span(n, func(i, j int) int {
			if j-i > 8 || j <= i {
				t.Errorf("n = %d: batch [%d, %d)", n, i, j)
			}
			for k := i; k < j; k++ {
				seen[k]++
			}
			return j - i
		})
		if err != nil || hits != n || slices.ContainsFunc(seen, func(c int) bool { return c != 1 }) {
			t.Errorf("n = %d: hits %d, err %v, seen %v", n, hits, err, seen)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d := &driver{ctx: ctx, batch: 8}
	if hits, _, err := d.span(10, func(i, j int) int { return 1 }); err == nil || hits != 0 {
		t.Errorf("cancelled: hits %d, err %v", hits, err)
	}
}
