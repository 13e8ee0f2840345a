package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/filterengine/filterengine/bench/dataset"
	"github.com/filterengine/filterengine/bench/experiment"
	"github.com/filterengine/filterengine/bench/filters"
)

// options are the command's flags before they become a Config.
type options struct {
	rows, krows, checkpoints, probes, sizedProbes, reps, batch int
	bits                                                       uint64
	k, kmin, kmax                                              uint
	dists, format, filters, experiments, out, writeData        string
	sized, kernelN                                             string
	setsN                                                      uint64
	setsMaxCount                                               uint
	growthN                                                    uint64
	quick                                                      bool
	cacheN, goroutines                                         string
	cacheSample                                                int
	threadsN, cacheFill                                        uint64
}

// quickValues replace the defaults of every flag not given explicitly
// under -quick: the whole run then takes well under a minute here.
var quickValues = map[string]string{
	"rows": "200000", "krows": "100000", "probes": "100000",
	"sized": "1e5@0.01,1e5@0.001", "sized-probes": "200000", "kernel-n": "100000", "sets-n": "100000", "growth-n": "1000000",
	"reps": "1", "checkpoints": "5",
	"cache-n": "1e4,1e5,1e6", "cache-sample": "100000", "cache-fill": "100000", "threads-n": "100000",
}

// QuickBitsPerRow is experiment a's (and b's) array under -quick without
// -bits: with k = 10 the filters end near the optimum for their keys
// (FPR about 1%), where the measured FPR says something against the model.
const QuickBitsPerRow = 10

func newFlagSet(o *options, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("filterbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var((*count)(&o.rows), "rows", "rows of each data set streamed in experiment a (the seed used 1e8)")
	fs.Var((*count64)(&o.bits), "bits", "bit array of experiments a and b; 0 scales the seed's 1e8 bits for 1e8 rows to one bit per row")
	fs.UintVar(&o.k, "k", dataset.SeedK, "probes in experiment a")
	fs.IntVar(&o.checkpoints, "checkpoints", 10, "FPR checkpoints while streaming in experiment a")
	fs.Var((*count)(&o.probes), "probes", "never-inserted values tested at each checkpoint of a and b")
	fs.Var((*count)(&o.krows), "krows", "rows of each data set in experiment b")
	fs.UintVar(&o.kmin, "kmin", 2, "smallest k of experiment b")
	fs.UintVar(&o.kmax, "kmax", 16, "largest k of experiment b")
	fs.StringVar(&o.sized, "sized", "1e6@0.01,1e6@0.001,1e7@0.01", "cells n@p of experiment c: filters for n keys at target rate p")
	fs.Var((*count)(&o.sizedProbes), "sized-probes", "non-member keys tested per filter in experiments c, d and f (and members timed in c and d)")
	fs.StringVar(&o.kernelN, "kernel-n", "1e6", "key counts of experiment d (p = 1%)")
	fs.Var((*count64)(&o.setsN), "sets-n", "keys of experiment f: distinct keys of S1 ∪ S2 (association) and of the multiset (multiplicity)")
	fs.UintVar(&o.setsMaxCount, "sets-max-count", 15, "largest multiplicity in experiment f (counts uniform in [1, max]; up to 57; above 15 the counting baseline needs 8-bit counters)")
	fs.Var((*count64)(&o.growthN), "growth-n", "keys of experiment s: the scalable filter's, ten times a window generation's")
	fs.StringVar(&o.cacheN, "cache-n", "1e4,1e5,1e6,1e7,1e8", "key counts of experiment n (ns/key against n, p = 1%)")
	fs.Var((*count)(&o.cacheSample), "cache-sample", "members (drawn over all n) and non-members tested at each n of experiment n")
	fs.Var((*count64)(&o.cacheFill), "cache-fill", "most keys a filter of experiment n holds: above it, a filter sized for n holds its first cache-fill keys (member tests only)")
	fs.Var((*count64)(&o.threadsN), "threads-n", "keys of experiment t (concurrent throughput), added then tested")
	fs.StringVar(&o.goroutines, "goroutines", "1,2,4,8", "goroutine counts of experiment t")
	fs.IntVar(&o.reps, "reps", 3, "repetitions of each timing in c, d and f; the median is reported")
	fs.IntVar(&o.batch, "batch", 4096, "keys per batch handed to a filter")
	fs.StringVar(&o.dists, "dists", "normal,uniform,exponential", "data sets, comma-separated")
	fs.StringVar(&o.format, "format", "text", "keys of the data sets: text (the seed's lines) or binary (8-byte float64)")
	fs.StringVar(&o.filters, "filters", "all", "filters, comma-separated: names, 'ours', 'peers' or 'all'")
	fs.StringVar(&o.experiments, "experiments", "all", "experiments to run, comma-separated subset of a,b,c,d,f,r,s,g,n,t")
	fs.StringVar(&o.out, "out", "out", "output directory for report.md, CSV files and plots")
	fs.StringVar(&o.writeData, "write-data", "", "also write each data set (rows values) to this directory, as the seed's files")
	fs.BoolVar(&o.quick, "quick", false, "small sizes for a run under a minute (explicit flags still win)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: filterbench [flags]\n\nRuns the seed-004 experiments (a: seed configuration, b: k sweep, c: sized filters,\nd: kernels against generic, f: shifting association and multiplicity against\ntheir baselines, s: growing and aging filters, n: ns/key against n, t: concurrent throughput\nagainst goroutines) over this library's filters and peer libraries, and writes\na Markdown report, CSV files and plots.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	return fs
}

// errUsage marks an error after which the usage is printed.
var errUsage = errors.New("usage")

// parseFlags reads args into a Config; any error is a usage error.
func parseFlags(args []string, stderr io.Writer) (*options, experiment.Config, error) {
	o := &options{rows: 5_000_000, probes: 500_000, krows: 500_000, sizedProbes: 1_000_000, setsN: 1_000_000, growthN: 10_000_000,
		cacheSample: 1_000_000, cacheFill: 10_000_000, threadsN: 1_000_000}
	fs := newFlagSet(o, stderr)
	if err := fs.Parse(args); err != nil {
		return nil, experiment.Config{}, err // flag has printed the message and usage
	}
	if fs.NArg() > 0 {
		return o, experiment.Config{}, usageErr(fs, "unexpected arguments %q", fs.Args())
	}
	if o.quick {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		for name, v := range quickValues {
			if !set[name] {
				fs.Set(name, v)
			}
		}
		if !set["bits"] {
			// Sized for the rows: the seed's one bit per row saturates
			// the quick run's 200k rows at FPR 0.999.
			o.bits = QuickBitsPerRow * uint64(o.rows)
		}
	}
	c, err := o.config()
	if err != nil {
		return o, c, usageErr(fs, "%v", err)
	}
	return o, c, nil
}

func usageErr(fs *flag.FlagSet, format string, args ...any) error {
	fmt.Fprintf(fs.Output(), "filterbench: "+format+"\n\n", args...)
	fs.Usage()
	return errUsage
}

func (o *options) config() (experiment.Config, error) {
	c := experiment.Config{
		Rows: o.rows, Bits: o.bits, K: uint32(o.k), Checkpoints: o.checkpoints, Probes: o.probes,
		KRows: o.krows, KMin: uint32(o.kmin), KMax: uint32(o.kmax),
		SizedProbes: o.sizedProbes, Reps: o.reps, Batch: o.batch,
		SetsN: o.setsN, SetsMaxCount: uint32(o.setsMaxCount), GrowthN: o.growthN,
		CacheSample: o.cacheSample, CacheFill: o.cacheFill, ThreadsN: o.threadsN,
	}
	var err error
	positive := map[string]int{"rows": o.rows, "krows": o.krows, "checkpoints": o.checkpoints, "probes": o.probes,
		"sized-probes": o.sizedProbes, "reps": o.reps, "batch": o.batch, "cache-sample": o.cacheSample}
	for _, name := range []string{"rows", "krows", "checkpoints", "probes", "sized-probes", "reps", "batch", "cache-sample"} {
		if positive[name] <= 0 {
			return c, fmt.Errorf("-%s must be positive, got %d", name, positive[name])
		}
	}
	if o.k < 1 || o.kmin < 1 || o.kmin > o.kmax || o.kmax > 64 {
		return c, fmt.Errorf("need 1 <= -k, 1 <= -kmin <= -kmax <= 64 (got k = %d, kmin = %d, kmax = %d)", o.k, o.kmin, o.kmax)
	}
	if o.growthN < 10 {
		return c, fmt.Errorf("need -growth-n >= 10 (got %d)", o.growthN)
	}
	if o.setsN < 3 || o.setsMaxCount < 1 || o.setsMaxCount > 57 {
		return c, fmt.Errorf("need -sets-n >= 3 and 1 <= -sets-max-count <= 57 (got %d, %d)", o.setsN, o.setsMaxCount)
	}
	if c.Experiments, err = experiment.ParseExperiments(o.experiments); err != nil {
		return c, err
	}
	if c.Entries, err = filters.Select(o.filters); err != nil {
		return c, err
	}
	if c.Format, err = dataset.ParseFormat(o.format); err != nil {
		return c, err
	}
	for _, name := range splitList(o.dists) {
		d, err := dataset.ParseDistribution(name)
		if err != nil {
			return c, err
		}
		c.Dists = append(c.Dists, d)
	}
	if len(c.Dists) == 0 {
		return c, fmt.Errorf("-dists names no data set")
	}
	if c.Sized, err = parseCells(o.sized); err != nil {
		return c, err
	}
	if c.KernelN, err = parseCounts("kernel-n", o.kernelN); err != nil {
		return c, err
	}
	if c.CacheN, err = parseCounts("cache-n", o.cacheN); err != nil {
		return c, err
	}
	if o.threadsN < 1 || o.cacheFill < 1 {
		return c, fmt.Errorf("need -threads-n >= 1 and -cache-fill >= 1 (got %d, %d)", o.threadsN, o.cacheFill)
	}
	if c.Goroutines, err = parseGoroutines(o.goroutines); err != nil {
		return c, err
	}
	return c, nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// parseCells reads n@p pairs such as 1e6@0.01.
func parseCells(s string) ([]experiment.Cell, error) {
	var out []experiment.Cell
	for _, f := range splitList(s) {
		ns, ps, ok := strings.Cut(f, "@")
		if !ok {
			return nil, fmt.Errorf("-sized: %q is not n@p (such as 1e6@0.01)", f)
		}
		n, err := parseCounts("sized", ns)
		if err != nil {
			return nil, err
		}
		p, err := strconv.ParseFloat(ps, 64)
		if err != nil || !(p > 0 && p < 1) {
			return nil, fmt.Errorf("-sized: %q is not a rate in (0, 1)", ps)
		}
		out = append(out, experiment.Cell{N: n[0], P: p})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-sized names no cell")
	}
	return out, nil
}

// parseCounts reads positive key counts, accepting 1e6-style notation.
func parseCounts(flagName, s string) ([]uint64, error) {
	var out []uint64
	for _, f := range splitList(s) {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || v < 1 || v > 1e10 || v != float64(uint64(v)) {
			return nil, fmt.Errorf("-%s: %q is not a key count between 1 and 1e10", flagName, f)
		}
		out = append(out, uint64(v))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-%s names no key count", flagName)
	}
	return out, nil
}

// parseGoroutines reads goroutine counts between 1 and 1024.
func parseGoroutines(s string) ([]int, error) {
	var out []int
	for _, f := range splitList(s) {
		g, err := strconv.Atoi(f)
		if err != nil || g < 1 || g > 1024 {
			return nil, fmt.Errorf("-goroutines: %q is not a goroutine count between 1 and 1024", f)
		}
		out = append(out, g)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-goroutines names no count")
	}
	return out, nil
}

// count is an int flag that also accepts 1e6-style notation.
type count int

func (c *count) String() string { return strconv.Itoa(int(*c)) }

func (c *count) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v != float64(int(v)) || v > 1e12 {
		return fmt.Errorf("%q is not a whole number", s)
	}
	*c = count(v)
	return nil
}

// count64 is a uint64 flag that also accepts 1e8-style notation.
type count64 uint64

func (c *count64) String() string { return strconv.FormatUint(uint64(*c), 10) }

func (c *count64) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || v != float64(uint64(v)) || v > 1<<48 {
		return fmt.Errorf("%q is not a whole number of bits", s)
	}
	*c = count64(v)
	return nil
}
