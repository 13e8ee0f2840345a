package experiment

import (
	"fmt"
	"math"
	"time"

	"github.com/filterengine/filterengine/bench/dataset"
	"github.com/filterengine/filterengine/bench/filters"
)

// absentFirst starts the counter of non-member integer keys far above any
// member counter, so members and non-members are disjoint.
const absentFirst = 1 << 62

// measured is one repetition of build/add, member test and absent test.
type measured struct {
	f                           filters.Filter
	add, member, absent, remove time.Duration
	memberHits, absentHits      int
	removed                     int
}

// measure builds e for members (n, p) and times Add of every member, Test
// of the first min(n, absent) members and Test of the non-members: both
// tests time as many keys, and a test of 1e6 members out of 1e7 costs the
// same per key as one of all, since every key's probes land at random.
func measure(d *driver, e filters.Entry, n uint64, p float64, members, absent *dataset.Keys) (measured, error) {
	var r measured
	var err error
	if e.Static() {
		r.f, r.add, err = d.build(e, members)
		if err != nil {
			return r, err
		}
	} else {
		if r.f, err = e.NewNP(n, p); err != nil {
			return r, fmt.Errorf("%s New(%d, %v): %w", e.Name, n, p, err)
		}
		d.prefault(r.f, members, 0, members.Len())
		if r.add, err = d.add(r.f, members, 0, members.Len()); err != nil {
			return r, err
		}
	}
	if r.memberHits, r.member, err = d.test(r.f, members, 0, timedMembers(members, absent)); err != nil {
		return r, err
	}
	r.absentHits, r.absent, err = d.test(r.f, absent, 0, absent.Len())
	return r, err
}

func timedMembers(members, absent *dataset.Keys) int { return min(members.Len(), absent.Len()) }

// perKey is one repetition of measure's timings with one single-key call
// per []byte key (AddEach/TestEach).
type perKey struct {
	add, member, absent time.Duration
	static              bool
}

// measureEach times what measure times, key by key: Add of every member
// into a fresh filter (a static filter keeps built, and its Add is not
// timed), Test of the timed members and of the non-members.
func measureEach(d *driver, e filters.Entry, n uint64, p float64, members, absent *dataset.Keys, built filters.Filter) (perKey, error) {
	d.each = true
	defer func() { d.each = false }()
	var r perKey
	f := built
	if e.Static() {
		r.static = true
	} else {
		var err error
		if f, err = e.NewNP(n, p); err != nil {
			return r, fmt.Errorf("%s New(%d, %v): %w", e.Name, n, p, err)
		}
		d.prefault(f, members, 0, members.Len())
		if r.add, err = d.add(f, members, 0, members.Len()); err != nil {
			return r, err
		}
	}
	var err error
	if _, r.member, err = d.test(f, members, 0, timedMembers(members, absent)); err != nil {
		return r, err
	}
	_, r.absent, err = d.test(f, absent, 0, absent.Len())
	return r, err
}

// repKeys is the work of one repetition (the batch pass and the per-key
// pass), for progress.
func repKeys(n uint64, probes int) float64 {
	return 2 * (float64(n) + float64(min(n, uint64(probes))) + float64(probes))
}

// runSized is experiment c.
func runSized(d *driver, c *Config, r *Results) error {
	var total float64
	for _, cell := range c.Sized {
		total += float64(len(c.Entries)) * (float64(c.Reps)*repKeys(cell.N, c.SizedProbes) + float64(cell.N))
	}
	c.Progress.Phase(fmt.Sprintf("c: sized filters, n@p = %v, %d reps", c.Sized, c.Reps), total)
	absent := dataset.Integers(absentFirst, c.SizedProbes)
	var members *dataset.Keys
	for _, cell := range c.Sized {
		if members == nil || members.Len() != int(cell.N) {
			members = dataset.Integers(0, int(cell.N))
		}
		for _, e := range c.Entries {
			row, err := sizedRow(d, c, e, cell.N, cell.P, members, absent)
			if err != nil {
				return err
			}
			r.Sized = append(r.Sized, row)
		}
	}
	return nil
}

func sizedRow(d *driver, c *Config, e filters.Entry, n uint64, p float64, members, absent *dataset.Keys) (SizedRow, error) {
	var add, member, absentNs, removeNs []float64
	var keyAdd, keyMember, keyAbsent []float64
	var last measured
	found := 0
	timed := timedMembers(members, absent)
	for rep := range c.Reps {
		d.what = fmt.Sprintf("%s n = %d p = %v rep %d/%d", e.Name, n, p, rep+1, c.Reps)
		res, err := measure(d, e, n, p, members, absent)
		if err != nil {
			return SizedRow{}, err
		}
		add = append(add, nsPerKey(res.add, members.Len()))
		member = append(member, nsPerKey(res.member, timed))
		absentNs = append(absentNs, nsPerKey(res.absent, absent.Len()))
		d.what = fmt.Sprintf("%s n = %d p = %v rep %d/%d: per key", e.Name, n, p, rep+1, c.Reps)
		each, err := measureEach(d, e, n, p, members, absent, res.f)
		if err != nil {
			return SizedRow{}, err
		}
		if !each.static {
			keyAdd = append(keyAdd, nsPerKey(each.add, members.Len()))
		}
		keyMember = append(keyMember, nsPerKey(each.member, timed))
		keyAbsent = append(keyAbsent, nsPerKey(each.absent, absent.Len()))
		if rep == c.Reps-1 {
			// No false negatives: every member, once, untimed, before
			// any removal.
			d.what = fmt.Sprintf("%s n = %d p = %v: every member", e.Name, n, p)
			if found, _, err = d.test(res.f, members, 0, members.Len()); err != nil {
				return SizedRow{}, err
			}
		}
		if rm, ok := res.f.(filters.Remover); ok {
			d.what = fmt.Sprintf("%s n = %d p = %v rep %d/%d: remove", e.Name, n, p, rep+1, c.Reps)
			if res.removed, res.remove, err = d.remove(rm, members, 0, timed); err != nil {
				return SizedRow{}, err
			}
			removeNs = append(removeNs, nsPerKey(res.remove, timed))
		}
		last = res
	}
	m, k := last.f.Params()
	keyAddMedian := math.NaN()
	if len(keyAdd) > 0 {
		keyAddMedian = median(keyAdd)
	}
	removeMedian := math.NaN()
	if len(removeNs) > 0 {
		removeMedian = median(removeNs)
	}
	return SizedRow{
		Filter: e.Name, N: n, P: p, M: m, K: k,
		Ours:            e.Kind == filters.Ours,
		Bytes:           last.f.Bytes(),
		BitsPerKey:      8 * float64(last.f.Bytes()) / float64(n),
		AddNs:           median(add),
		TestMemberNs:    median(member),
		TestAbsentNs:    median(absentNs),
		KeyAddNs:        keyAddMedian,
		KeyTestMemberNs: median(keyMember),
		KeyTestAbsentNs: median(keyAbsent),
		RemoveNs:        removeMedian,
		Removed:         last.removed,
		FalseNegatives:  members.Len() - found,
		Tested:          absent.Len(),
		FalsePositives:  last.absentHits,
		FPR:             rate(last.absentHits, absent.Len()),
		ModelFPR:        modelOrNaN(last.f, n),
	}, nil
}

func modelOrNaN(f filters.Filter, n uint64) float64 {
	if m, ok := f.(filters.Modeled); ok {
		return m.ModelFPR(n)
	}
	return math.NaN()
}
