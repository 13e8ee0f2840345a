package experiment

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/classic"
	"github.com/filterengine/filterengine/counting"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/hashing"
	"github.com/filterengine/filterengine/shifting"
)

// setsP is experiment f's target rate for ShBF_A and ShBF_x.
const setsP = 0.01

// classicSeed2 seeds the second classic filter of the association
// baseline.
const classicSeed2 = 0x5eed2

// Key classes of experiment f's rows.
const (
	KeysS1Only  = "S1 only"
	KeysS2Only  = "S2 only"
	KeysBoth    = "both"
	KeysAbsent  = "non-members"
	KeysMembers = "members"
)

// Filters of experiment f's rows.
const (
	SetsShBFA          = "shbf-a"
	SetsTwoClassic     = "2x classic"
	SetsTwoClassicKern = "2x classic batch"
	SetsShBFX          = "shbf-x"
	SetsCounting       = "counting"
)

// setsClass is one key class of the association: its keys, the outcome a
// member has, and for two classic filters whether each holds it.
type setsClass struct {
	name     string
	keys     []uint64
	outcome  shifting.Answer // 0 for non-members
	in1, in2 bool
}

// associationClasses splits keys 0..n-1 into thirds (i mod 3: S1 only,
// S2 only, both) and takes non-members from absentFirst.
func associationClasses(n uint64, probes int) []setsClass {
	cs := []setsClass{
		{name: KeysS1Only, outcome: shifting.OnlyS1, in1: true},
		{name: KeysS2Only, outcome: shifting.OnlyS2, in2: true},
		{name: KeysBoth, outcome: shifting.Both, in1: true, in2: true},
	}
	for i := range n {
		cs[i%3].keys = append(cs[i%3].keys, i)
	}
	absent := setsClass{name: KeysAbsent, keys: make([]uint64, probes)}
	for i := range absent.keys {
		absent.keys[i] = absentFirst + uint64(i)
	}
	return append(cs, absent)
}

// setsKeys hashes keys in batches with seed 0, as the library's batch
// calls do, and hands each batch of keys and hashes to query; the time
// covers hashing and query.
func setsKeys(d *driver, keys []uint64, query func(ks, hs []uint64)) (time.Duration, error) {
	hs := make([]uint64, d.batch)
	_, spent, err := d.span(len(keys), func(i, j int) int {
		asm.HashUint64s(hs, keys[i:j], 0)
		query(keys[i:j], hs[:j-i])
		return 0
	})
	return spent, err
}

// timedSets repeats a query over keys reps times and returns the median
// ns/key; tally is called with every hash of the last repetition only,
// untimed.
func timedSets(d *driver, c *Config, keys []uint64, query func(ks, hs []uint64), tally func(k, h uint64)) (float64, error) {
	var ns []float64
	for range c.Reps {
		spent, err := setsKeys(d, keys, query)
		if err != nil {
			return 0, err
		}
		ns = append(ns, nsPerKey(spent, len(keys)))
	}
	_, err := setsKeys(d, keys, func(ks, hs []uint64) {
		for i, h := range hs {
			tally(ks[i], h)
		}
	})
	return median(ns), err
}

// runSets is experiment f: ShBF_A against two classic filters, ShBF_x
// against a counting filter of the same memory.
func runSets(d *driver, c *Config, r *Results) error {
	n := c.SetsN
	classes := associationClasses(n, c.SizedProbes)
	queried := float64(n) + float64(c.SizedProbes)
	total := float64(c.Reps+1)*queried*5 + 2*float64(n) + float64(n)*float64(c.SetsMaxCount+1)/2
	c.Progress.Phase(fmt.Sprintf("f: association and multiplicity, n = %d, p = %v, counts up to %d, %d reps", n, setsP, c.SetsMaxCount, c.Reps), total)
	if err := runAssociation(d, c, r, classes); err != nil {
		return err
	}
	return runMultiplicity(d, c, r, classes[len(classes)-1].keys)
}

func runAssociation(d *driver, c *Config, r *Results, classes []setsClass) error {
	n := c.SetsN
	a, err := shifting.NewAssociation(n, setsP)
	if err != nil {
		return fmt.Errorf("f: NewAssociation(%d, %v): %w", n, setsP, err)
	}
	defer a.Close()
	// Two classic filters with ShBF_A's bits between them and its k. The
	// second has its own seed: with one hash, a non-member's probes would
	// land at the same positions in both, and their false positives
	// would not be independent (measured 93.4% "neither" against 92.9%
	// for independent filters at n = 1e5).
	m1 := max(a.M()/2, 1)
	f1, err := classic.NewMK(m1, a.K())
	if err != nil {
		return err
	}
	defer f1.Close()
	f2, err := classic.NewMK(m1, a.K(), engine.WithSeed(classicSeed2))
	if err != nil {
		return err
	}
	defer f2.Close()
	key2 := hashing.Uint64Key(classicSeed2)
	sets := []shifting.Sets{shifting.InS1, shifting.InS2, shifting.InBoth}
	d.what = "f: inserting S1 and S2"
	for ci, cl := range classes[:3] {
		if _, err := setsKeys(d, cl.keys, func(ks, hs []uint64) {
			for i, h := range hs {
				_ = a.AddHash(h, sets[ci])
				if cl.in1 {
					f1.AddHash(h)
				}
				if cl.in2 {
					f2.AddHash(hashing.HashUint64Keyed(ks[i], key2))
				}
			}
		}); err != nil {
			return err
		}
	}
	s1 := uint64(len(classes[0].keys) + len(classes[2].keys))
	s2 := uint64(len(classes[1].keys) + len(classes[2].keys))
	fpr1, fpr2 := engine.FPR(m1, s1, a.K()), engine.FPR(m1, s2, a.K())
	cand := a.CandidateFPR(n)
	twoBytes := f1.SizeBytes() + f2.SizeBytes()
	out1, out2, hs2 := make([]bool, d.batch), make([]bool, d.batch), make([]uint64, d.batch)
	for _, cl := range classes {
		var sink int
		base := SetsRow{Query: "association", Keys: cl.name, N: n, K: a.K(), Queried: len(cl.keys)}

		// ShBF_A: clear answers of members (always right), "neither" of
		// non-members; a member's answer must hold its outcome.
		row := base
		row.Filter, row.Bytes = SetsShBFA, a.SizeBytes()
		var good int
		d.what = "f: shbf-a " + cl.name
		row.Ns, err = timedSets(d, c, cl.keys, func(_, hs []uint64) {
			for _, h := range hs {
				sink += int(a.QueryHash(h))
			}
		}, func(_, h uint64) {
			ans := a.QueryHash(h)
			switch {
			case cl.outcome == 0:
				if ans.None() {
					good++
				}
			case !ans.Has(cl.outcome):
				row.Wrong++
			case ans.Clear():
				good++
			}
		})
		if err != nil {
			return err
		}
		row.Rate = rate(good, len(cl.keys))
		row.ModelRate = a.ClearRate(n)
		if cl.outcome == 0 {
			row.ModelRate = math.Pow(1-cand, 3)
		}
		r.Sets = append(r.Sets, row)

		// Two classic filters, per key and with the batch kernel: right
		// answers (in1, in2) of members, (false, false) of non-members;
		// a member missing from its own filter is a false negative.
		for _, batch := range []bool{false, true} {
			row := base
			row.Filter, row.Bytes = SetsTwoClassic, twoBytes
			query := func(ks, hs []uint64) {
				// Both filters' hashes in batch, as ShBF_A's one hash is,
				// then both answers key by key, as Query gives.
				asm.HashUint64s(hs2, ks, classicSeed2)
				for i, h := range hs {
					in1, in2 := f1.TestHash(h), f2.TestHash(hs2[i])
					if in1 && in2 {
						sink++
					}
				}
			}
			if batch {
				row.Filter = SetsTwoClassicKern
				query = func(ks, hs []uint64) {
					asm.HashUint64s(hs2, ks, classicSeed2)
					sink += f1.TestHashes(hs, out1) + f2.TestHashes(hs2[:len(ks)], out2)
				}
			}
			good := 0
			d.what = "f: " + row.Filter + " " + cl.name
			row.Ns, err = timedSets(d, c, cl.keys, query, func(k, h uint64) {
				in1, in2 := f1.TestHash(h), f2.TestHash(hashing.HashUint64Keyed(k, key2))
				if cl.in1 && !in1 || cl.in2 && !in2 {
					row.Wrong++
				}
				if in1 == cl.in1 && in2 == cl.in2 {
					good++
				}
			})
			if err != nil {
				return err
			}
			row.Rate = rate(good, len(cl.keys))
			row.ModelRate = 1
			if !cl.in1 {
				row.ModelRate *= 1 - fpr1
			}
			if !cl.in2 {
				row.ModelRate *= 1 - fpr2
			}
			r.Sets = append(r.Sets, row)
		}
		_ = sink
	}
	return nil
}

// multiplicityCounts gives key i a count in [1, maxCount], uniform, from
// a fixed PCG stream.
func multiplicityCounts(n uint64, maxCount uint32) []uint32 {
	rng := rand.New(rand.NewPCG(2016, 5))
	cs := make([]uint32, n)
	for i := range cs {
		cs[i] = 1 + rng.Uint32N(maxCount)
	}
	return cs
}

func runMultiplicity(d *driver, c *Config, r *Results, absent []uint64) error {
	n, maxCount := c.SetsN, c.SetsMaxCount
	x, err := shifting.NewMultiplicity(n, setsP, maxCount)
	if err != nil {
		return fmt.Errorf("f: NewMultiplicity(%d, %v, %d): %w", n, setsP, maxCount, err)
	}
	defer x.Close()
	// A counting filter of the same bytes: 4-bit counters while they
	// hold maxCount, else 8-bit; k optimal for that many counters.
	counterBits := 4
	if maxCount > 15 {
		counterBits = 8
	}
	cells := max(8*x.SizeBytes()/uint64(counterBits), 1)
	cf, err := counting.NewMK(cells, max(engine.OptimalK(cells, n), 1), counting.WithCounterBits(counterBits))
	if err != nil {
		return err
	}
	defer cf.Close()
	members := make([]uint64, n)
	for i := range members {
		members[i] = uint64(i)
	}
	counts := multiplicityCounts(n, maxCount)
	d.what = "f: inserting counts"
	next := 0
	if _, err := setsKeys(d, members, func(_, hs []uint64) {
		for _, h := range hs {
			cnt := counts[next]
			next++
			_ = x.AddHash(h, cnt)
			for range cnt {
				cf.AddHash(h)
			}
		}
	}); err != nil {
		return err
	}
	var exactModel float64
	for cnt := uint32(1); cnt <= maxCount; cnt++ {
		exactModel += 1 - x.OverReportRate(n, cnt)
	}
	exactModel /= float64(maxCount)
	cfBytes := cf.M() * uint64(cf.CounterBits()) / 8
	for _, keys := range []struct {
		name string
		ks   []uint64
	}{{KeysMembers, members}, {KeysAbsent, absent}} {
		isMember := keys.name == KeysMembers
		for _, shbf := range []bool{true, false} {
			row := SetsRow{Query: "multiplicity", Keys: keys.name, N: n, MaxCount: maxCount, Queried: len(keys.ks)}
			count := cf.CountHash
			row.Filter, row.K, row.Bytes = SetsCounting, cf.K(), cfBytes
			row.ModelRate = math.NaN()
			if !isMember {
				row.ModelRate = 1 - cf.ModelFPR(n)
			}
			if shbf {
				count = x.CountHash
				row.Filter, row.K, row.Bytes = SetsShBFX, x.K(), x.SizeBytes()
				row.ModelRate = exactModel
				if !isMember {
					row.ModelRate = 1 - x.OverReportRate(n, 0)
				}
			}
			var sink uint32
			good, i := 0, 0
			d.what = "f: " + row.Filter + " " + keys.name
			row.Ns, err = timedSets(d, c, keys.ks, func(_, hs []uint64) {
				for _, h := range hs {
					sink += count(h)
				}
			}, func(_, h uint64) {
				want := uint32(0)
				if isMember {
					want = counts[i]
				}
				i++
				got := count(h)
				if got < want {
					row.Wrong++
				}
				if got == want {
					good++
				}
			})
			if err != nil {
				return err
			}
			_ = sink
			row.Rate = rate(good, len(keys.ks))
			r.Sets = append(r.Sets, row)
		}
	}
	return nil
}
