package experiment

import (
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/filterengine/filterengine/bench/dataset"
	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/classic"
	"github.com/filterengine/filterengine/counting"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/shifting"
	"github.com/filterengine/filterengine/spatial"
)

// Experiment t: throughput of the concurrent forms against goroutines.
// For each family and goroutine count G of Goroutines, a fresh filter for
// ThreadsN keys at 1% gets all ThreadsN 8-byte keys added by G goroutines
// at once (each a contiguous share, one single-key call per []byte key),
// then the same G goroutines test every key. Throughput is keys over the
// wall time from the goroutines' common start to the last one's end. The
// machine's core count bounds the speed-up: with more goroutines than
// cores they take turns. A first row per goroutine count (ThreadsHash)
// times XXH3 of each key alone, no filter: its speed-up is what the cores
// free during the run allow, the ceiling of every family's on a shared
// machine.

// ThreadsRow is one family, operation and goroutine count of experiment t.
type ThreadsRow struct {
	Family     string
	Op         string // ThreadsAdd or ThreadsTest
	Call       string // the method each goroutine calls per key
	N          uint64
	Goroutines int
	// CPUs and MaxProcs are runtime.NumCPU and GOMAXPROCS during the run.
	CPUs, MaxProcs int
	// MKeysPerSec is the median over the repetitions of keys per second
	// of wall time, in millions.
	MKeysPerSec float64
	// FalseNegatives counts keys the concurrent test missed after the
	// concurrent adds (must be 0).
	FalseNegatives int
}

// Operations of experiment t.
const (
	ThreadsAdd  = "add"
	ThreadsTest = "test"
	// ThreadsHash is the baseline's operation: engine.Hash of each key.
	ThreadsHash = "hash"
	// ThreadsBaseline is the baseline's family name.
	ThreadsBaseline = "xxh3 only (no filter)"
)

// ThreadsP is experiment t's target false-positive rate.
const ThreadsP = 0.01

// concurrentFilter is one family's concurrent add and test of a []byte
// key, on a fresh filter.
type concurrentFilter struct {
	add  func(key []byte)
	test func(key []byte) bool
	// reset empties the filter in place: the experiment fills it once
	// untimed and resets it, so the timed adds pay no first-touch page
	// faults (nil for a family without Reset: its adds fault them in).
	reset func()
}

// concurrentFamily names a family's concurrent calls and makes filters.
type concurrentFamily struct {
	name, addCall, testCall string
	make                    func(n uint64, p float64) (concurrentFilter, error)
}

// concurrentFamilies are the families with writers that may run on many
// goroutines at once: the *Concurrent forms of blocked, classic,
// shifting and counting (lock-free CAS), spatial's Insert/Check.
func concurrentFamilies() []concurrentFamily {
	return []concurrentFamily{
		{"blocked", "AddConcurrent", "TestConcurrent", concurrentForms(blocked.New)},
		{"classic", "AddConcurrent", "TestConcurrent", concurrentForms(classic.New)},
		{"shifting", "AddConcurrent", "TestConcurrent", concurrentForms(shifting.New)},
		{"counting", "AddConcurrent", "TestConcurrent", concurrentForms(counting.New)},
		{"spatial", fmt.Sprintf("Insert (%d areas)", threadsAreas), "Check != 0", func(n uint64, p float64) (concurrentFilter, error) {
			f, err := spatial.New(n, threadsAreas, p)
			if err != nil {
				return concurrentFilter{}, err
			}
			return concurrentFilter{
				add: func(k []byte) {
					if err := f.Insert(k, 1+int(k[0])%threadsAreas); err != nil {
						panic(fmt.Sprintf("experiment t: spatial Insert: %v", err))
					}
				},
				test: func(k []byte) bool { return f.Check(k) != 0 },
			}, nil
		}},
	}
}

// concurrentForms makes the concurrentFilter of a family's *Concurrent
// forms from its constructor.
func concurrentForms[F interface {
	AddConcurrent(key []byte)
	TestConcurrent(key []byte) bool
	Reset()
}](newFilter func(n uint64, p float64, opts ...engine.Option) (F, error)) func(n uint64, p float64) (concurrentFilter, error) {
	return func(n uint64, p float64) (concurrentFilter, error) {
		f, err := newFilter(n, p)
		if err != nil {
			return concurrentFilter{}, err
		}
		return concurrentFilter{f.AddConcurrent, f.TestConcurrent, f.Reset}, nil
	}
}

// threadsAreas is the number of spatial areas; a key's area is picked
// from its first byte.
const threadsAreas = 4

// runThreads is experiment t.
func runThreads(d *driver, c *Config, r *Results) error {
	fams := concurrentFamilies()
	n := int(c.ThreadsN)
	total := float64(len(fams)*len(c.Goroutines)*c.Reps) * 2 * float64(n)
	c.Progress.Phase(fmt.Sprintf("t: concurrent throughput, n = %d, goroutines %v, %d reps", n, c.Goroutines, c.Reps), total)
	keys := dataset.Integers(0, n).Views(nil, 0, n)
	hashOnly := func(k []byte) bool { return engine.Hash(k)&1 == 0 }
	// Warm up, untimed: the first passes over the keys run far slower
	// than later ones, which would make every one-goroutine baseline,
	// measured first, too low.
	for range 3 {
		for _, g := range c.Goroutines {
			onGoroutines(g, keys, hashOnly)
		}
	}
	for _, g := range c.Goroutines {
		var rate []float64
		for range c.Reps {
			if err := d.ctx.Err(); err != nil {
				return err
			}
			spent, _ := onGoroutines(g, keys, hashOnly)
			rate = append(rate, mkeysPerSec(n, spent))
		}
		r.Threads = append(r.Threads, ThreadsRow{Family: ThreadsBaseline, Op: ThreadsHash, Call: "engine.Hash", N: c.ThreadsN, Goroutines: g,
			CPUs: runtime.NumCPU(), MaxProcs: runtime.GOMAXPROCS(0), MKeysPerSec: median(rate)})
	}
	for _, fam := range fams {
		for _, g := range c.Goroutines {
			var add, test []float64
			missed := 0
			for rep := range c.Reps {
				if err := d.ctx.Err(); err != nil {
					return err
				}
				d.what = fmt.Sprintf("%s, %d goroutines, rep %d/%d", fam.name, g, rep+1, c.Reps)
				f, err := fam.make(c.ThreadsN, ThreadsP)
				if err != nil {
					return fmt.Errorf("t: %s New(%d, %v): %w", fam.name, n, ThreadsP, err)
				}
				if f.reset != nil {
					for _, k := range keys {
						f.add(k)
					}
					f.reset()
				}
				spent, _ := onGoroutines(g, keys, func(k []byte) bool { f.add(k); return true })
				add = append(add, mkeysPerSec(n, spent))
				d.prog.Advance(float64(n), d.what)
				var hits int
				spent, hits = onGoroutines(g, keys, f.test)
				test = append(test, mkeysPerSec(n, spent))
				d.prog.Advance(float64(n), d.what)
				missed = max(missed, n-hits)
			}
			row := ThreadsRow{Family: fam.name, N: c.ThreadsN, Goroutines: g, CPUs: runtime.NumCPU(), MaxProcs: runtime.GOMAXPROCS(0)}
			a, t := row, row
			a.Op, a.Call, a.MKeysPerSec = ThreadsAdd, fam.addCall, median(add)
			t.Op, t.Call, t.MKeysPerSec, t.FalseNegatives = ThreadsTest, fam.testCall, median(test), missed
			r.Threads = append(r.Threads, a, t)
		}
	}
	return nil
}

func mkeysPerSec(keys int, d time.Duration) float64 {
	return float64(keys) / d.Seconds() / 1e6
}

// onGoroutines calls op on every key from g goroutines, each over a
// contiguous share, all released at once; it returns the wall time from
// the release to the last goroutine's end and how many calls returned
// true.
func onGoroutines(g int, keys [][]byte, op func([]byte) bool) (time.Duration, int) {
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	counts := make([]struct {
		n int
		_ [56]byte // one cache line each
	}, g)
	ready.Add(g)
	done.Add(g)
	for w := range g {
		share := keys[w*len(keys)/g : (w+1)*len(keys)/g]
		go func() {
			defer done.Done()
			ready.Done()
			<-start
			hits := 0
			for _, k := range share {
				if op(k) {
					hits++
				}
			}
			counts[w].n = hits
		}()
	}
	ready.Wait()
	t0 := time.Now()
	close(start)
	done.Wait()
	spent := time.Since(t0)
	hits := 0
	for _, c := range counts {
		hits += c.n
	}
	return spent, hits
}
