package conformance

import (
	"bytes"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/cpulevel"
	"github.com/filterengine/filterengine/internal/testkit/fprstat"
)

// remover checks the Remove forms of a type that has them.
func (s *suite[T]) remover(t *testing.T) {
	f := s.new(t, n, p)
	if _, ok := any(f).(Remover); !ok {
		t.Skipf("%s has no Remove", s.fam.Name)
	}
	g := s.keys(15)
	kept, keptU := g.mixed(1000)
	gone := g.bytes(7 * 300)
	goneU := g.uints(2 * 300)
	f.AddKeys(kept.b)
	f.AddUint64s(keptU.u)
	f.AddKeys(gone.b)
	f.AddUint64s(goneU.u)
	base := f.Clone()
	r := any(f).(Remover)

	// Every form removes its share; each answers true, as every key was
	// added.
	parts := gone.cut(5)
	uparts := goneU.cut(2)
	out := make([]bool, maxOut)
	removedAll := func(name string, ok bool, i int) {
		t.Helper()
		if !ok {
			t.Fatalf("%s: %s of added key %d answered false", s.fam.Name, name, i)
		}
	}
	for i, b := range parts[0].b {
		removedAll("Remove", r.Remove(b), i)
	}
	for i, str := range parts[1].s {
		removedAll("RemoveString", r.RemoveString(str), i)
	}
	for i, h := range parts[2].h {
		removedAll("RemoveHash", r.RemoveHash(h), i)
	}
	for i, u := range uparts[0].u {
		removedAll("RemoveUint64", r.RemoveUint64(u), i)
	}
	batch := func(name string, k int, call func(lo, hi int, out []bool) int) {
		t.Helper()
		for _, rg := range ranges(k) {
			o := out[:rg[1]-rg[0]]
			hits := call(rg[0], rg[1], o)
			for i, ok := range o {
				removedAll(name, ok, rg[0]+i)
			}
			if hits != len(o) {
				t.Fatalf("%s: %s returned %d for %d removed keys", s.fam.Name, name, hits, len(o))
			}
		}
	}
	batch("RemoveHashes", parts[3].len(), func(lo, hi int, o []bool) int { return r.RemoveHashes(parts[3].h[lo:hi], o) })
	batch("RemoveKeys", parts[4].len(), func(lo, hi int, o []bool) int { return r.RemoveKeys(parts[4].b[lo:hi], o) })
	batch("RemoveUint64s", uparts[1].len(), func(lo, hi int, o []bool) int { return r.RemoveUint64s(uparts[1].u[lo:hi], o) })

	// Kept keys stay; removed ones test absent but for the model's false
	// positives at the load that is left.
	s.allPresent(t, f, "kept keys after removes of others", kept, keptU)
	left := uint64(kept.len() + keptU.len())
	_, hi := fprstat.BinomialBounds(uint64(gone.len()+goneU.len()), f.ModelFPR(left), fprstat.Z999)
	still := 0
	for _, b := range gone.b {
		if f.Test(b) {
			still++
		}
	}
	for _, u := range goneU.u {
		if f.TestUint64(u) {
			still++
		}
	}
	if float64(still) > hi {
		t.Errorf("%s: %d of %d removed keys still test present, above the 99.9%% bound %.0f of the model's false positives", s.fam.Name, still, gone.len()+goneU.len(), hi)
	}

	// Removing absent keys changes nothing and answers false.
	absent := g.bytes(500)
	before := s.marshal(t, f)
	for i, b := range absent.b {
		if f.Test(b) {
			continue // a false positive: its remove would take another key's count
		}
		if r.Remove(b) {
			t.Fatalf("%s: Remove of absent key %d answered true", s.fam.Name, i)
		}
	}
	if !bytes.Equal(before, s.marshal(t, f)) {
		t.Errorf("%s: removing absent keys changed the filter", s.fam.Name)
	}

	// Batch removes equal single ones.
	one, many := base.Clone(), base.Clone()
	for _, b := range gone.b {
		any(one).(Remover).Remove(b)
	}
	for _, rg := range ranges(gone.len()) {
		any(many).(Remover).RemoveKeys(gone.b[rg[0]:rg[1]], out)
	}
	if d := firstDiff(s.marshal(t, one), s.marshal(t, many)); d >= 0 {
		t.Errorf("%s: RemoveKeys leaves other bytes than Remove key by key (first difference at byte %d)", s.fam.Name, d)
	}
}

// concurrent runs plain reads from many goroutines and, for a Concurrent
// type, the *Concurrent writers beside each other and beside
// TestConcurrent; every batch goes through lengths with tails. Under
// -race it shows the forms free of data races.
func (s *suite[T]) concurrent(t *testing.T) {
	t.Run("TestAndAdd", s.concurrentDedup)
	const workers, share = 8, 400
	f := s.new(t, n, p)
	g := s.keys(16)
	pre, preU := g.mixed(workers * share / 2)
	f.AddKeys(pre.b)
	f.AddUint64s(preU.u)

	// Plain reads only: safe from many goroutines at once.
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sets := []keySet{pre.cut(workers)[w], preU.cut(workers)[w]}
			for _, form := range testForms(f) {
				if _, ok := any(f).(Concurrent); ok && (form.name == "TestConcurrent" || form.name == "TestHashConcurrent") {
					continue // tested below, beside the writers
				}
				for _, ks := range sets {
					if form.uint && !ks.isU {
						continue
					}
					out := make([]bool, ks.len())
					form.test(f, ks, out)
					for i, ok := range out {
						if !ok {
							t.Errorf("%s: concurrent reads: %s lost key %d", s.fam.Name, form.name, i)
							return
						}
					}
				}
			}
		}()
	}
	wg.Wait()

	if _, ok := any(f).(Concurrent); !ok {
		return
	}
	// Concurrent writers, each through its own form, reading back its
	// own keys and others' as it goes.
	c := any(f).(Concurrent)
	forms := addForms(f)
	var concurrentForms []addForm[T]
	for _, form := range forms {
		if len(form.name) > 10 && form.name[len(form.name)-10:] == "Concurrent" {
			concurrentForms = append(concurrentForms, form)
		}
	}
	sets := make([]keySet, workers)
	for w := range workers {
		if concurrentForms[w%len(concurrentForms)].uint {
			sets[w] = g.uints(share)
		} else {
			sets[w] = g.bytes(share)
		}
	}
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			form := concurrentForms[w%len(concurrentForms)]
			mine, other := sets[w], sets[(w+1)%workers]
			for _, rg := range ranges(mine.len()) {
				part := mine.slice(rg[0], rg[1])
				form.add(f, part)
				for i := range part.len() {
					if !c.TestConcurrent(part.b[i]) || !c.TestHashConcurrent(part.h[i]) {
						t.Errorf("%s: %s: key %d absent to its own writer", s.fam.Name, form.name, rg[0]+i)
						return
					}
				}
				for i := rg[0]; i < rg[1]; i++ {
					_ = c.TestConcurrent(other.b[i])
				}
			}
		}()
	}
	wg.Wait()
	s.allPresent(t, f, "after concurrent writers", append(sets, pre, preU)...)
}

// hugeBudget is how long HugePagesGC goes on calling after its first
// round of calls at the generic level: most of the suite's time, long
// enough that a family missing a runtime.KeepAlive faults (the fake
// without it is the suite's own check of that). The
// vector levels get one round: an assembly kernel cannot be preempted,
// so no collection completes inside one, and the Go around the kernels
// is the generic level's.
const hugeBudget = time.Second

// hugePagesGC builds filters large enough for huge-page storage
// (config.HugePageThreshold) and makes a batch call each filter's last
// use, while another goroutine runs runtime.GC without pause: a family
// that reads its words without keeping its storage alive
// (runtime.KeepAlive) has them unmapped under the call, and faults or
// answers wrongly.
func (s *suite[T]) hugePagesGC(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	mk, grows, err := s.huge(t)
	if err != nil {
		t.Skip(err)
	}
	// A few keys added, then a long query of random keys with an added
	// one every 256th, so that a call lasts a while (milliseconds even
	// with AVX-512) over the whole array, and its answers for the added
	// keys are known. The query has no pointers but for the byte forms'
	// slice headers, so that each GC cycle is short against the call.
	const added, stride, queries = 1 << 8, 1 << 12, 1 << 21
	g := s.keys(17)
	var q keySet
	q.u = make([]uint64, queries)
	q.h = make([]uint64, queries)
	q.b = make([][]byte, queries/4) // slice headers cost the GC: fewer
	arr := make([]byte, 8*len(q.b))
	adds := make([]uint64, 0, added)
	for i := range q.u {
		q.u[i] = g.rng.Uint64()
		if i%stride == 0 && len(adds) < added {
			adds = append(adds, g.hash(le8(q.u[i])))
		} else if i%stride == 0 {
			q.u[i] = q.u[i%(stride*added)]
		}
		q.h[i] = g.hash(le8(q.u[i]))
		if i < len(q.b) {
			q.b[i] = arr[8*i : 8*i+8 : 8*i+8]
			copy(q.b[i], le8(q.u[i]))
		}
	}
	out := make([]bool, len(q.u))
	// The collector runs when a call starts (kick), cycle after cycle
	// until the next call: a fresh cycle finds the filter unreachable at
	// once, rather than one that had marked it before the call.
	stop, kick := make(chan struct{}), make(chan struct{}, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	var cycles atomic.Int64
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			case <-kick:
				for len(kick) == 0 {
					select {
					case <-stop:
						return
					default:
					}
					runtime.GC()
					cycles.Add(1)
				}
			}
		}
	}()
	before := func() {
		select {
		case kick <- struct{}{}:
		default:
		}
	}
	start := time.Now()
	defer func() { close(stop); wg.Wait() }()

	// Every call once, then more rounds while the time lasts (a slow
	// level or machine gets fewer).
	for round := 0; round < 8; round++ {
		for _, last := range []string{"TestHashes", "TestKeys", "TestUint64s", "AddHashes"} {
			if round > 0 && (cpulevel.Current() != cpulevel.Generic || time.Since(start) > hugeBudget) {
				break
			}
			clear(out)
			str := hugeRound(mk, grows, before, adds, q, last, out)
			if round == 0 && last == "TestHashes" {
				s.checkString(t, "huge", str)
			}
			if last == "AddHashes" {
				continue
			}
			n := len(q.u)
			if last == "TestKeys" {
				n = len(q.b)
			}
			for i := 0; i < n; i += stride {
				if !out[i] {
					t.Fatalf("%s: huge filter, round %d: %s lost added key %d (query %d) while the GC ran", s.fam.Name, round, last, i/stride, i)
				}
			}
		}
	}
	t.Logf("%d GC cycles ran beside the calls in %v", cycles.Load(), time.Since(start))
}

// huge returns a constructor of filters of at least
// config.HugePageThreshold bytes, which engine storage maps on huge
// pages: New sized by its bytes per key, or NewMK for a type that grows
// from small parts.
func (s *suite[T]) huge(t testing.TB) (mk func() (T, error), grows bool, err error) {
	small := s.new(t, 1<<16, p)
	nk := uint64(float64(config.HugePageThreshold)*1.05*(1<<16)/float64(small.SizeBytes())) + 1
	f, err := s.fam.New(nk, p, s.opts()...)
	if err != nil {
		return nil, false, fmt.Errorf("%s: New(%d, %v): %v", s.fam.Name, nk, p, err)
	}
	if f.SizeBytes() >= config.HugePageThreshold {
		return func() (T, error) { return s.fam.New(nk, p, s.opts()...) }, false, nil
	}
	if s.fam.NewMK == nil {
		return nil, true, fmt.Errorf("%s: New(%d, %v) has %d bytes, below the huge-page threshold, and the family has no NewMK", s.fam.Name, nk, p, f.SizeBytes())
	}
	const k = 6
	small, err = s.fam.NewMK(1<<20, k, s.opts()...)
	if err != nil {
		return nil, true, fmt.Errorf("%s: NewMK(%d, %d): %v", s.fam.Name, 1<<20, k, err)
	}
	m := uint64(float64(config.HugePageThreshold)*1.05*(1<<20)/float64(small.SizeBytes())) + 1
	if f, err = s.fam.NewMK(m, k, s.opts()...); err != nil || f.SizeBytes() < config.HugePageThreshold {
		return nil, true, fmt.Errorf("%s: NewMK(%d, %d) gives no huge filter (%v)", s.fam.Name, m, k, err)
	}
	return func() (T, error) { return s.fam.NewMK(m, k, s.opts()...) }, true, nil
}

// hugeRound builds a huge filter, adds hs and makes a batch call its
// last use, answering into out; it returns the filter's String (taken
// before the call).
//
//go:noinline
func hugeRound[T Membership[T]](mk func() (T, error), grows bool, before func(), hs []uint64, q keySet, last string, out []bool) stringer {
	f, err := mk()
	if err != nil {
		panic(err)
	}
	f.AddHashes(hs)
	str := stringer(f.String())
	before()
	switch last {
	case "TestHashes":
		f.TestHashes(q.h, out)
	case "TestKeys":
		f.TestKeys(q.b, out[:len(q.b)])
	case "TestUint64s":
		f.TestUint64s(q.u, out)
	case "AddHashes":
		if grows {
			f.AddHashes(hs) // the query's keys would add parts of 16 MiB each
		} else {
			f.AddHashes(q.h[:len(q.h)/4]) // random writes: slower than tests
		}
	}
	return str
}

// stringer is a String result standing for its filter in checkString.
type stringer string

func (s stringer) String() string { return string(s) }
