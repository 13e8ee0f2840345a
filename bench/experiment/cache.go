package experiment

import (
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"time"

	"github.com/filterengine/filterengine/bench/dataset"
	"github.com/filterengine/filterengine/bench/filters"
)

// Experiment n: ns/key against n, where each filter falls out of cache.
// For every n of CacheN a filter sized for n keys at CacheP is built once
// (its keys streamed in: ours through the batch calls, peers key by key,
// a static filter constructed), then CacheSample members drawn at random
// over the keys it holds and as many never-added keys are tested: one
// single-key call per []byte key for every filter, and our families'
// batch calls beside them. A member's k probes land at random over the
// whole table whatever it holds, so a sample of 1e6 members times the
// memory traffic of all n. Above CacheFill keys (1e7 by default) a
// filter sized for n holds only its first CacheFill keys, which keeps
// the build of 1e8 keys per key (30-60 s a filter here) out of the run:
// the member test costs the same, but a non-member stops at its first
// clear bit sooner in an emptier filter, so the absent test and the FPR
// are not reported there, and a static filter (BinaryFuse8), which cannot
// hold fewer keys than it is built for, is left out there.

// CacheFilters are the entries experiment n runs when -filters selects
// them: our membership families and the main peers.
var CacheFilters = []string{"classic", "blocked", "shifting", "counting", "spatial", "bloom/v3", "boom/classic", "xor/binaryfuse8"}

// CacheP is experiment n's target false-positive rate.
const CacheP = 0.01

// Call forms of experiment n's rows.
const (
	FormPerKey = "per key"
	FormBatch  = "batch"
	FormBuild  = "build"
)

// CacheRow is one filter at one n of experiment n.
type CacheRow struct {
	Filter string
	Ours   bool // a filterengine family, with batch calls
	N      uint64
	P      float64
	// Held is the keys inserted: N, or CacheFill when N is larger.
	Held  uint64
	Bytes uint64
	// Sampled members and as many non-members are tested per timing.
	Sampled int
	// AddNs is the build's ns/key over the Held keys, in AddForm: FormBatch
	// (ours), FormPerKey (peers), FormBuild (a static filter).
	AddNs   float64
	AddForm string
	// Median ns/key over the repetitions: one single-key call per key,
	// and our batch calls (NaN for peers, which have none). The absent
	// tests are NaN where Held < N.
	KeyTestMemberNs, KeyTestAbsentNs float64
	TestMemberNs, TestAbsentNs       float64
	// FalseNegatives counts sampled members that tested absent (must be
	// 0); FPR is over the sampled non-members (NaN where Held < N).
	FalseNegatives int
	FPR            float64
}

// cacheEntries are the selected entries experiment n runs, in registry
// order.
func cacheEntries(c *Config, r *Results) []filters.Entry {
	var out []filters.Entry
	for _, e := range c.Entries {
		if slices.Contains(CacheFilters, e.Name) {
			out = append(out, e)
		} else {
			r.note(fmt.Sprintf("n: %s left out: experiment n runs %v", e.Name, CacheFilters))
		}
	}
	return out
}

// cacheKeys holds keys as one batch: Ints[i] and its 8 little-endian
// bytes Keys[i].
type cacheKeys struct{ all filters.Batch }

// set makes c hold ints, reusing its storage.
func (c *cacheKeys) set(ints []uint64) filters.Batch {
	if cap(c.all.Keys) < len(ints) {
		c.all.Keys = make([][]byte, len(ints))
		for i := range c.all.Keys {
			c.all.Keys[i] = make([]byte, 8)
		}
	}
	c.all.Keys, c.all.Ints = c.all.Keys[:len(ints)], ints
	for i, k := range ints {
		binary.LittleEndian.PutUint64(c.all.Keys[i], k)
	}
	return c.all
}

// slice is keys [i, j).
func (c *cacheKeys) slice(i, j int) filters.Batch {
	return filters.Batch{Keys: c.all.Keys[i:j:j], Ints: c.all.Ints[i:j:j]}
}

// memberSample draws s members of [0, n) at random (with repetition when
// s > n): key Mix64(i) is member i, as dataset.Integers(0, n) makes them.
func memberSample(n uint64, s int) []uint64 {
	out := make([]uint64, s)
	for i := range out {
		out[i] = dataset.Mix64(dataset.Mix64(uint64(i)^0x5bd1e995) % n)
	}
	return out
}

// runCache is experiment n.
func runCache(d *driver, c *Config, r *Results) error {
	entries := cacheEntries(c, r)
	s := c.CacheSample
	var total float64
	for _, n := range c.CacheN {
		total += float64(len(entries)) * (float64(min(n, c.CacheFill)) + float64(c.Reps)*4*float64(s))
	}
	c.Progress.Phase(fmt.Sprintf("n: ns/key against n = %v, %d keys sampled, %d reps", c.CacheN, s, c.Reps), total)
	var absent, members cacheKeys
	absent.set(dataset.Integers(absentFirst, s).Uint64s(0, s))
	for _, n := range c.CacheN {
		held := min(n, c.CacheFill)
		members.set(memberSample(held, s))
		for _, e := range entries {
			if e.Static() && held < n {
				r.note(fmt.Sprintf("n: %s left out at n = %d: static, it cannot hold fewer keys than it is built for (-cache-fill %d)", e.Name, n, c.CacheFill))
				c.Progress.Advance(float64(held)+float64(c.Reps)*4*float64(s), e.Name)
				continue
			}
			row, err := cacheRow(d, c, e, n, held, &members, &absent)
			if err != nil {
				return err
			}
			r.Cache = append(r.Cache, row)
			// The next filter starts from the memory this one held (up to
			// half a gigabyte at 1e8).
			runtime.GC()
			debug.FreeOSMemory()
		}
	}
	return nil
}

func cacheRow(d *driver, c *Config, e filters.Entry, n, held uint64, members, absent *cacheKeys) (CacheRow, error) {
	row := CacheRow{Filter: e.Name, Ours: e.Kind == filters.Ours, N: n, P: CacheP, Held: held, Sampled: len(members.all.Ints),
		TestMemberNs: math.NaN(), TestAbsentNs: math.NaN()}
	d.what = fmt.Sprintf("%s n = %d: build", e.Name, n)
	f, spent, form, err := cacheBuild(d, e, n, held)
	if err != nil {
		return row, err
	}
	row.Bytes, row.AddForm, row.AddNs = f.Bytes(), form, nsPerKey(spent, int(held))
	s := row.Sampled
	var keyMember, keyAbsent, member, absentNs []float64
	var memberHits, absentHits int
	for rep := range c.Reps {
		d.what = fmt.Sprintf("%s n = %d rep %d/%d", e.Name, n, rep+1, c.Reps)
		time1 := func(test func(filters.Batch) int, keys *cacheKeys) (int, float64, error) {
			hits, spent, err := d.span(s, func(i, j int) int { return test(keys.slice(i, j)) })
			return hits, nsPerKey(spent, s), err
		}
		var ns float64
		if memberHits, ns, err = time1(f.TestEach, members); err != nil {
			return row, err
		}
		keyMember = append(keyMember, ns)
		if absentHits, ns, err = time1(f.TestEach, absent); err != nil {
			return row, err
		}
		keyAbsent = append(keyAbsent, ns)
		if !row.Ours {
			continue
		}
		if _, ns, err = time1(f.Test, members); err != nil {
			return row, err
		}
		member = append(member, ns)
		if _, ns, err = time1(f.Test, absent); err != nil {
			return row, err
		}
		absentNs = append(absentNs, ns)
	}
	row.KeyTestMemberNs, row.KeyTestAbsentNs = median(keyMember), median(keyAbsent)
	if row.Ours {
		row.TestMemberNs, row.TestAbsentNs = median(member), median(absentNs)
	}
	row.FalseNegatives = s - memberHits
	row.FPR = rate(absentHits, s)
	if held < n { // an emptier filter: see the experiment's comment
		row.KeyTestAbsentNs, row.TestAbsentNs, row.FPR = math.NaN(), math.NaN(), math.NaN()
	}
	return row, nil
}

// cacheBuild builds e for n keys at CacheP holding held of them: Mix64(i)
// for i < held, generated a batch at a time outside the timed calls, or
// all at once for a static filter (held = n).
func cacheBuild(d *driver, e filters.Entry, n, held uint64) (filters.Filter, time.Duration, string, error) {
	if e.Static() {
		keys := make([]uint64, n)
		for i := range keys {
			keys[i] = dataset.Mix64(uint64(i))
		}
		t0 := time.Now()
		f, err := e.Build(filters.Batch{Ints: keys})
		spent := time.Since(t0)
		d.prog.Advance(float64(n), d.what)
		return f, spent, FormBuild, err
	}
	f, err := e.NewNP(n, CacheP)
	if err != nil {
		return nil, 0, "", fmt.Errorf("n: %s New(%d, %v): %w", e.Name, n, CacheP, err)
	}
	form := FormPerKey
	if e.Kind == filters.Ours {
		form = FormBatch
	}
	ints := make([]uint64, d.batch)
	var buf cacheKeys
	var spent time.Duration
	for i := uint64(0); i < held; i += uint64(d.batch) {
		if err := d.ctx.Err(); err != nil {
			return nil, spent, form, err
		}
		j := min(i+uint64(d.batch), held)
		for x := i; x < j; x++ {
			ints[x-i] = dataset.Mix64(x)
		}
		b := buf.set(ints[:j-i])
		t0 := time.Now()
		f.Add(b)
		spent += time.Since(t0)
		d.prog.Advance(float64(j-i), d.what)
	}
	return f, spent, form, nil
}
