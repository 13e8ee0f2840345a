package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/bench/experiment"
	"github.com/filterengine/filterengine/bench/plots"
	"github.com/filterengine/filterengine/bench/report"
)

// ReportFile is the Markdown report's name in the output directory.
const ReportFile = "report.md"

func newMeta(args []string, c experiment.Config, quick bool, started time.Time) report.Meta {
	m := report.Meta{
		Command:  strings.TrimSpace("filterbench " + strings.Join(args, " ")),
		Started:  started.Format(time.RFC3339),
		Duration: time.Since(started).Round(time.Second).String(),
		Machine:  fmt.Sprintf("%s, %d CPUs, %s, %s", cpuModel(), runtime.NumCPU(), runtime.GOOS+"/"+runtime.GOARCH, runtime.Version()),
		Kernel:   fmt.Sprintf("%s (available: %v)", asm.Kernel(), asm.Available()),
		Commit:   sourceCommit(),
	}
	var dists []string
	for _, d := range c.Dists {
		dists = append(dists, d.String())
	}
	if c.Experiments["a"] {
		how := "the seed's 1e8 bits for 1e8 rows scaled to one bit per row; -bits 1e8 is the seed's array"
		switch {
		case quick && c.Bits == QuickBitsPerRow*uint64(c.Rows):
			how = fmt.Sprintf("-quick: %d bits per row, sized for the keys; the seed's one bit per row would saturate", QuickBitsPerRow)
		case c.Bits != 0:
			how = "set by -bits"
		}
		m.Settings = append(m.Settings, fmt.Sprintf("a: data sets %s from seed 2022 as %s keys, %d rows, m = %d bits (%s), k = %d, %d checkpoints, %d never-inserted values tested at each",
			strings.Join(dists, ", "), c.Format, c.Rows, c.StreamBits(), how, c.K, c.Checkpoints, c.Probes))
	}
	if c.Experiments["b"] {
		m.Settings = append(m.Settings, fmt.Sprintf("b: k = %d..%d, %d rows per data set, m = %d bits (a's bits per row)", c.KMin, c.KMax, c.KRows, c.KBits()))
	}
	if c.Experiments["c"] {
		m.Settings = append(m.Settings, fmt.Sprintf("c: n@p = %v, 8-byte distinct keys, %d non-members, median of %d repetitions", c.Sized, c.SizedProbes, c.Reps))
	}
	if c.Experiments["d"] {
		m.Settings = append(m.Settings, fmt.Sprintf("d: n = %v, p = 0.01, levels %v, median of %d repetitions", c.KernelN, asm.Available(), c.Reps))
	}
	if c.Experiments["f"] {
		m.Settings = append(m.Settings, fmt.Sprintf("f: n = %d 8-byte keys, p = 0.01, counts up to %d, %d non-members, median of %d repetitions; its own filters (shifting association and multiplicity, classic, counting), not -filters", c.SetsN, c.SetsMaxCount, c.SizedProbes, c.Reps))
	}
	if c.Experiments["r"] {
		m.Settings = append(m.Settings, fmt.Sprintf("r: classic.Retouched n = %d, p = %v, %d false positives cleared per scheme, FPR on %d other non-members; classic.Dynamic %d rows of %d keys at p = %v, %d members and non-members, median of %d repetitions; its own filters, not -filters",
			experiment.RetouchedN, experiment.RetouchedP, experiment.RetouchedFPs, c.SizedProbes, experiment.DynamicRows, experiment.DynamicNR, experiment.DynamicP, c.SizedProbes, c.Reps))
	}
	if c.Experiments["s"] {
		m.Settings = append(m.Settings, fmt.Sprintf("s: blocked.Scalable(1e3, 0.01) after %d 8-byte keys and blocked.Window(%d, 0.01, 4) filled, %d queries (half members), median of %d repetitions; its own filters, not -filters", c.GrowthN, max(c.GrowthN/10, 1), c.SizedProbes&^1, c.Reps))
	}
	if c.Experiments["n"] {
		m.Settings = append(m.Settings, fmt.Sprintf("n: n = %v at p = 0.01, filters holding at most %d keys, %d members and %d non-members tested at each, median of %d repetitions; -filters among %v",
			c.CacheN, c.CacheFill, c.CacheSample, c.CacheSample, c.Reps, experiment.CacheFilters))
	}
	if c.Experiments["t"] {
		m.Settings = append(m.Settings, fmt.Sprintf("t: n = %d keys at p = 0.01, goroutines %v on %d CPUs (GOMAXPROCS %d), median of %d repetitions; its own filters (blocked, classic, shifting, counting, spatial), not -filters",
			c.ThreadsN, c.Goroutines, runtime.NumCPU(), runtime.GOMAXPROCS(0), c.Reps))
	}
	if c.Experiments["g"] {
		m.Settings = append(m.Settings, fmt.Sprintf("g (LevelDB, Pebble): n = 100000 random 16-byte keys, 10 bits per key, as many non-members, median of max(-reps, 5) = %d repetitions after a warm-up round", max(c.Reps, 5)),
			fmt.Sprintf("g (ClickHouse): one granule of 8192 text rows (UInt64 values for bloom_filter) built, 64 words (values) asked of 512 granules of 256 rows, median of %d repetitions after a warm-up round", max(c.Reps, 5)))
	}
	for _, e := range c.Entries {
		m.Filters = append(m.Filters, fmt.Sprintf("**%s** (%s): %s", e.Name, e.Kind, e.About))
	}
	return m
}

// sourceCommit names the checkout the command was built from, as git
// describes it ("-dirty" for uncommitted changes), or "unknown" outside a
// git checkout.
func sourceCommit() string {
	out, err := exec.Command("git", "describe", "--always", "--dirty", "--abbrev=12").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

// cpuModel reads the CPU's name on Linux, or says it is unknown.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// writeOutputs prints the tables and writes the CSV files, plots and
// report into dir; it returns the paths written.
func writeOutputs(dir string, meta report.Meta, r *experiment.Results, stdout io.Writer) ([]string, error) {
	for _, t := range report.Tables(r) {
		t.WriteText(stdout)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(stdout, "note: %s\n", n)
	}
	files, err := report.WriteCSV(dir, r)
	if err != nil {
		return files, err
	}
	pl, err := plots.WriteAll(dir, r)
	if err != nil {
		return files, err
	}
	for _, p := range pl {
		files = append(files, filepath.Join(dir, p))
	}
	path := filepath.Join(dir, ReportFile)
	f, err := os.Create(path)
	if err != nil {
		return files, err
	}
	report.WriteMarkdown(f, meta, r, pl)
	if err := f.Close(); err != nil {
		return files, err
	}
	return append([]string{path}, files...), nil
}
