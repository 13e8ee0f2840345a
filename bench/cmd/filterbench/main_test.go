package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/filterengine/filterengine/bench/filters"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/fprstat"
)

var (
	quickOnce sync.Once
	quickDir  string
	quickOut  string
	quickErr  string
	quickCode int
)

// quickRun runs `filterbench -quick` once for every test of the package.
func quickRun(t *testing.T) string {
	t.Helper()
	quickOnce.Do(func() {
		dir, err := os.MkdirTemp("", "filterbench-test-")
		if err != nil {
			t.Fatal(err)
		}
		quickDir = dir
		var out, errb bytes.Buffer
		quickCode = run(context.Background(), []string{"-quick", "-out", dir}, &out, &errb, nil)
		quickOut, quickErr = out.String(), errb.String()
	})
	if quickCode != 0 {
		t.Fatalf("filterbench -quick exited %d\nstderr:\n%s", quickCode, quickErr)
	}
	return quickDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if quickDir != "" {
		os.RemoveAll(quickDir)
	}
	os.Exit(code)
}

// Every registered entry has a row in table c, every entry with an (m, k)
// form one in table a, and the terminal shows the same tables.
func TestQuickReportHasEveryFilter(t *testing.T) {
	dir := quickRun(t)
	md, err := os.ReadFile(filepath.Join(dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{}
	for _, s := range strings.Split(string(md), "### ")[1:] {
		sections[s[:2]] = s
	}
	for _, want := range []string{"a.", "b.", "c.", "d.", "f."} {
		if sections[want] == "" {
			t.Fatalf("report has no table %s", want)
		}
	}
	for _, e := range filters.All() {
		row := "| " + e.Name + " |"
		if !strings.Contains(sections["c."], row) {
			t.Errorf("table c has no row for %s", e.Name)
		}
		if e.NewMK != nil && !strings.Contains(sections["a."], "| "+e.Name+" |") {
			t.Errorf("table a has no row for %s", e.Name)
		}
		if e.Kind == filters.Ours && e.Kernels && !strings.Contains(sections["d."], row) {
			t.Errorf("table d has no row for %s", e.Name)
		}
		if !strings.Contains(quickOut, e.Name) {
			t.Errorf("terminal output does not mention %s", e.Name)
		}
	}
}

func TestQuickPlotsDecode(t *testing.T) {
	dir := quickRun(t)
	for _, pattern := range []string{"a_fpr_*", "a_time*", "b_fpr_k_*", "b_time_k_*", "c_nskey_*", "d_speedup*", "f_nskey*", "n_test_member*", "n_test_absent*", "t_add*", "t_test*"} {
		for _, ext := range []string{".png", ".svg"} {
			files, _ := filepath.Glob(filepath.Join(dir, pattern+ext))
			if len(files) == 0 {
				t.Errorf("no plot %s%s", pattern, ext)
			}
			for _, f := range files {
				checkImage(t, f)
			}
		}
	}
}

func checkImage(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if strings.HasSuffix(path, ".png") {
		img, err := png.Decode(f)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return
		}
		if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 100 {
			t.Errorf("%s: %v is too small to be a plot", path, b)
		}
		return
	}
	dec := xml.NewDecoder(f)
	root := ""
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Errorf("%s: not XML: %v", path, err)
			return
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Errorf("%s: root element %q, want svg", path, root)
	}
}

func readCSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = r[i]
		}
		out = append(out, m)
	}
	return out
}

func num(t *testing.T, row map[string]string, col string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(row[col], 64)
	if err != nil {
		t.Fatalf("column %s = %q: %v", col, row[col], err)
	}
	return v
}

// fprCheck is one measured FPR to compare with its model.
type fprCheck struct {
	where string
	row   map[string]string
	n     float64 // distinct keys inserted
}

// familyZ is the z that keeps the chance of any false alarm among checks
// independent comparisons at 0.1% (Bonferroni): each is tested at
// 0.1%/checks two-sided. A quick run makes hundreds of comparisons; at
// fprstat.Z999 each, one of them would fall outside by chance about every
// other configuration, so a change in any family could flip this test.
func familyZ(checks int) float64 {
	return math.Sqrt2 * math.Erfinv(1-0.001/float64(max(checks, 1)))
}

// checkFPRs asserts that the false positives of every check fall inside
// the family-wise 99.9% binomial range (fprstat.BinomialBounds) of its
// model; classic's model is recomputed here with engine.FPR from the m and
// k the run reports, not taken from the run.
func checkFPRs(t *testing.T, checks []fprCheck) {
	t.Helper()
	z := familyZ(len(checks))
	for _, c := range checks {
		model := num(t, c.row, "model_fpr")
		if c.row["filter"] == "classic" {
			model = engine.FPR(uint64(num(t, c.row, "m")), uint64(c.n), uint32(num(t, c.row, "k")))
		}
		if math.IsNaN(model) {
			continue
		}
		tested, fp := num(t, c.row, "tested"), num(t, c.row, "false_positives")
		lo, hi := fprstat.BinomialBounds(uint64(tested), model, z)
		if fp < lo || fp > hi {
			t.Errorf("%s %s: %v false positives in %v, model %v allows [%.0f, %.0f] (z = %.2f)", c.where, c.row["filter"], fp, tested, model, lo, hi, z)
		}
	}
}

func TestFamilyZ(t *testing.T) {
	if z := familyZ(1); math.Abs(z-fprstat.Z999) > 1e-6 {
		t.Errorf("familyZ(1) = %v, want Z999 = %v", z, fprstat.Z999)
	}
	if z := familyZ(500); z < 4.5 || z > 5 {
		t.Errorf("familyZ(500) = %v, want about 4.8", z)
	}
}

func TestQuickFPRMatchesModels(t *testing.T) {
	dir := quickRun(t)
	var checks []fprCheck
	filtersChecked := map[string]bool{}
	for _, r := range readCSV(t, filepath.Join(dir, "sized.csv")) {
		if fn := num(t, r, "false_negatives"); fn != 0 {
			t.Errorf("c %s n=%s: %v false negatives", r["filter"], r["n"], fn)
		}
		checks = append(checks, fprCheck{"c n=" + r["n"] + " p=" + r["p"], r, num(t, r, "n")})
	}
	for _, name := range []string{"stream.csv", "ksweep.csv"} {
		for _, r := range readCSV(t, filepath.Join(dir, name)) {
			checks = append(checks, fprCheck{name + " " + r["dist"] + " rows=" + r["rows"] + " k=" + r["k"], r, num(t, r, "distinct")})
		}
	}
	for _, c := range checks {
		filtersChecked[c.row["filter"]] = true
	}
	for _, e := range filters.All() {
		if !filtersChecked[e.Name] {
			t.Errorf("no FPR of %s in the CSV files", e.Name)
		}
	}
	checkFPRs(t, checks)
}

// -quick sizes experiment a for its keys (10 bits per row, so its FPR
// says something against the model) unless -bits is given; the default
// keeps the seed's one bit per row.
func TestQuickSizesExperimentA(t *testing.T) {
	for _, c := range []struct {
		args []string
		bits uint64
	}{
		{[]string{"-quick"}, 2_000_000},
		{[]string{"-quick", "-rows", "1e5"}, 1_000_000},
		{[]string{"-quick", "-bits", "12345"}, 12_345},
		{nil, 0},
	} {
		_, cfg, err := parseFlags(c.args, io.Discard)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if cfg.Bits != c.bits {
			t.Errorf("%v: Bits = %d, want %d", c.args, cfg.Bits, c.bits)
		}
	}
	dir := quickRun(t)
	final := map[string]map[string]string{}
	for _, r := range readCSV(t, filepath.Join(dir, "stream.csv")) {
		final[r["dist"]+" "+r["filter"]] = r // the last checkpoint wins
	}
	for key, r := range final {
		if fpr := num(t, r, "fpr"); fpr > 0.05 {
			t.Errorf("a %s: FPR %v after every row of -quick: not sized for its keys", key, fpr)
		}
	}
}

// Experiments n and t lose no member: the quick run's cache.csv and
// threads.csv have no false negative.
func TestQuickCacheAndThreads(t *testing.T) {
	dir := quickRun(t)
	for _, name := range []string{"cache.csv", "threads.csv"} {
		rows := readCSV(t, filepath.Join(dir, name))
		if len(rows) == 0 {
			t.Errorf("%s is empty", name)
		}
		for _, r := range rows {
			if fn := num(t, r, "false_negatives"); fn != 0 {
				t.Errorf("%s: %v", name, r)
			}
		}
	}
}

func TestBadFlagsExitTwoWithUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-no-such-flag"},
		{"-rows", "-5"},
		{"-rows", "many"},
		{"-dists", "poisson"},
		{"-filters", "cuckoo"},
		{"-experiments", "z"},
		{"-sized", "1e6@1.5"},
		{"-sized", "1e6"},
		{"-kmin", "9", "-kmax", "3"},
		{"-sets-max-count", "58"},
		{"-sets-n", "2"},
		{"-goroutines", "0"},
		{"-goroutines", "two"},
		{"-cache-n", "1e11"},
		{"-cache-sample", "0"},
		{"-cache-fill", "0"},
		{"stray"},
	} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), args, &out, &errb, nil); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
		if !strings.Contains(errb.String(), "Usage: filterbench") {
			t.Errorf("%v: no usage on stderr:\n%s", args, errb.String())
		}
	}
}

// A cancelled run stops at once and still writes a report marked as
// interrupted.
func TestCancelledRunWritesPartialReport(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	if code := run(ctx, []string{"-quick", "-out", dir}, &out, &errb, nil); code != 0 {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	md, err := os.ReadFile(filepath.Join(dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "Interrupted") {
		t.Errorf("report of a cancelled run does not say it was interrupted")
	}
}

// -write-data writes each data set as the seed's files: one line per
// value, the first of normal(0, 1) from seed 2022 being -0.0869598.
func TestWriteData(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	var out, errb bytes.Buffer
	args := []string{"-quick", "-rows", "1000", "-dists", "normal,exponential", "-write-data", data,
		"-experiments", "d", "-kernel-n", "1000", "-sized-probes", "1000", "-filters", "classic", "-out", dir}
	if code := run(context.Background(), args, &out, &errb, nil); code != 0 {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	b, err := os.ReadFile(filepath.Join(data, "normal.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 1000 || lines[0] != "-0.0869598" {
		t.Errorf("normal.txt: %d lines, first %q", len(lines), lines[0])
	}
	if _, err := os.Stat(filepath.Join(data, "exponential.txt")); err != nil {
		t.Error(err)
	}
}

// The counting filters remove every timed member (each tests present, so
// each must be removable); the others report no Remove.
func TestQuickRemove(t *testing.T) {
	dir := quickRun(t)
	removers := map[string]bool{}
	for _, r := range readCSV(t, filepath.Join(dir, "sized.csv")) {
		if math.IsNaN(num(t, r, "remove_ns_per_key")) {
			continue
		}
		removers[r["filter"]] = true
		if want := min(num(t, r, "n"), num(t, r, "tested")); num(t, r, "removed") != want {
			t.Errorf("%s n=%s: removed %s of %v members", r["filter"], r["n"], r["removed"], want)
		}
	}
	for _, name := range []string{"counting", "boom/counting"} {
		if !removers[name] {
			t.Errorf("no Remove timing for %s", name)
		}
	}
	if len(removers) != 2 {
		t.Errorf("Remove timed for %v, want only the counting filters", removers)
	}
}

// Table f has every filter on every key class of the quick run, no
// contract violation (a multiplicity count below the truth, a member
// answer without its outcome, a false negative), and the shifting
// structures' rates inside the family-wise binomial range of their models.
func TestQuickSets(t *testing.T) {
	dir := quickRun(t)
	rows := readCSV(t, filepath.Join(dir, "sets.csv"))
	seen := map[string]bool{}
	var modeled []map[string]string
	for _, r := range rows {
		seen[r["query"]+"/"+r["filter"]+"/"+r["keys"]] = true
		if v := num(t, r, "violations"); v != 0 {
			t.Errorf("%s %s on %s: %v violations", r["query"], r["filter"], r["keys"], v)
		}
		if !(num(t, r, "ns_per_key") > 0) {
			t.Errorf("%s %s on %s: no timing", r["query"], r["filter"], r["keys"])
		}
		if r["filter"] == "shbf-a" || r["filter"] == "shbf-x" {
			modeled = append(modeled, r)
		}
	}
	for _, want := range []string{
		"association/shbf-a/S1 only", "association/shbf-a/S2 only", "association/shbf-a/both", "association/shbf-a/non-members",
		"association/2x classic/S1 only", "association/2x classic/non-members", "association/2x classic batch/both",
		"multiplicity/shbf-x/members", "multiplicity/shbf-x/non-members", "multiplicity/counting/members", "multiplicity/counting/non-members",
	} {
		if !seen[want] {
			t.Errorf("sets.csv has no row %s", want)
		}
	}
	z := familyZ(len(modeled))
	for _, r := range modeled {
		queried, right, model := num(t, r, "queried"), num(t, r, "right_rate"), num(t, r, "model_right_rate")
		lo, hi := fprstat.BinomialBounds(uint64(queried), model, z)
		if got := math.Round(right * queried); got < lo || got > hi {
			t.Errorf("%s %s on %s: %v right of %v, model %v allows [%.0f, %.0f]", r["query"], r["filter"], r["keys"], got, queried, model, lo, hi)
		}
	}
}
