// Package experiment runs the bench's experiments over the filter
// registry:
//
//	a  the awesome-bloom-filters evaluation's configuration: each data set streamed into each filter of
//	   m bits and k = 10 probes, FPR on never-inserted values at
//	   checkpoints, total time per filter per distribution;
//	b  FPR and time against k = 2..16 at the same bits per row;
//	c  filters sized for n keys at target rate p (the command's default
//	   cells: 1e6 keys at 1% and 0.1%, 1e7 at 1%): measured FPR, bits per
//	   key, Add and Test ns/key per family and peer;
//	d  every kernel level asm.Available() names against the generic
//	   reference, as a ratio;
//	f  shifting association (ShBF_A) against two classic filters of the
//	   same bits and k, and shifting multiplicity (ShBF_x) against a
//	   counting filter of the same bytes: query ns/key, clear-answer and
//	   exact-count rates beside their models (there is no experiment e);
//	r  classic.Retouched's clearing schemes (false positives removed
//	   against false negatives introduced) and classic.Dynamic's batch
//	   test against its rows tested one by one (retouched.go).
//	s  filters that grow and age: blocked.Scalable after GrowthN keys
//	   beside one blocked filter for GrowthN keys and BoomFilters'
//	   ScalableBloomFilter, blocked.Window of 4 generations beside one
//	   blocked filter of a generation's keys (growth.go).
//	g  file formats other engines read, against those engines' own code:
//	   Parquet's SBBF against arrow-go, the LevelDB filter against
//	   goleveldb and RocksDB's legacy filter against Pebble, build and
//	   per-key MayMatch ns/key, FPR and byte equality.
//	n  ns/key against n (CacheN, 1e4 to 1e8): where each filter falls out
//	   of cache, per key and batch (cache.go).
//	t  throughput of the concurrent forms against goroutines (threads.go).
//
// Every figure is measured in the run that reports it. Timings cover only
// the filter calls: keys are generated beforehand and handed over in
// batches (batch calls for this library, a loop per key for peers).
package experiment

import (
	"fmt"
	"slices"
	"strings"

	"github.com/filterengine/filterengine/bench/dataset"
	"github.com/filterengine/filterengine/bench/filters"
	"github.com/filterengine/filterengine/bench/progress"
)

// Names of the experiments, in run order.
var Names = []string{"a", "b", "c", "d", "f", "r", "s", "g", "n", "t"}

// ParseExperiments reads a comma-separated subset of Names ("" or "all"
// for every one).
func ParseExperiments(list string) (map[string]bool, error) {
	out := map[string]bool{}
	list = strings.TrimSpace(list)
	if list == "" || list == "all" {
		for _, n := range Names {
			out[n] = true
		}
		return out, nil
	}
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if !slices.Contains(Names, n) {
			return nil, fmt.Errorf("unknown experiment %q (want a subset of %s)", n, strings.Join(Names, ","))
		}
		out[n] = true
	}
	return out, nil
}

// Config is one run's parameters; the command fills it from flags.
type Config struct {
	Experiments map[string]bool
	Entries     []filters.Entry
	Dists       []dataset.Distribution
	Format      dataset.Format

	// Rows streamed per data set in experiment a. Bits is a's array; 0
	// scales the seed's 1e8 bits for 1e8 rows to one bit per row.
	Rows        int
	Bits        uint64
	K           uint32
	Checkpoints int
	// Probes is the number of never-inserted values tested at each
	// checkpoint of a and b.
	Probes int

	// KRows rows per data set for experiment b, over k = KMin..KMax, at
	// a's bits per row.
	KRows      int
	KMin, KMax uint32

	// Sized are c's (key count, target rate) cells; SizedProbes the
	// absent keys per filter. KernelN are d's key counts (p = 1%).
	Sized       []Cell
	SizedProbes int
	KernelN     []uint64

	// SetsN is experiment f's key count (distinct keys of S1 ∪ S2, and
	// of the multiset); SetsMaxCount its largest multiplicity.
	SetsN        uint64
	SetsMaxCount uint32

	// GrowthN is experiment s's key count: the Scalable's keys, and ten
	// times a Window generation's.
	GrowthN uint64

	// CacheN are experiment n's key counts, CacheSample the members and
	// non-members tested at each, CacheFill the most keys a filter holds
	// (cache.go).
	CacheN      []uint64
	CacheSample int
	CacheFill   uint64

	// ThreadsN is experiment t's key count, Goroutines its goroutine
	// counts (threads.go).
	ThreadsN   uint64
	Goroutines []int

	// Reps repeats each timing of c, d and f; the median is reported.
	Reps  int
	Batch int

	Progress *progress.Reporter
}

// StreamBits is the array of experiment a.
func (c *Config) StreamBits() uint64 {
	if c.Bits != 0 {
		return c.Bits
	}
	return max(1, uint64(float64(c.Rows)*dataset.SeedBits/dataset.SeedRows))
}

// KBits is the array of experiment b: a's bits per row times KRows.
func (c *Config) KBits() uint64 {
	return max(1, uint64(float64(c.StreamBits())*float64(c.KRows)/float64(max(c.Rows, 1))))
}

// Cell is one (n keys, target rate p) configuration of experiment c.
type Cell struct {
	N uint64
	P float64
}

func (c Cell) String() string { return fmt.Sprintf("%d@%v", c.N, c.P) }
