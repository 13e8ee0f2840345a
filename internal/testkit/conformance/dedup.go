package conformance

import (
	"sync"
	"sync/atomic"
	"testing"
)

// ConcurrentDedup is the concurrent dedup every membership family's
// filter offers beside its Concurrent forms (engine's package doc): each
// call adds a key and reports whether it tested present before; it may
// run beside every other *Concurrent call; a key added by any goroutine
// stays present; of calls racing for one new key, at least one returns
// false.
type ConcurrentDedup interface {
	TestAndAddConcurrent(key []byte) bool
	TestAndAddHashConcurrent(h uint64) bool
	TestAndAddUint64Concurrent(k uint64) bool
	TestAndAddStringConcurrent(s string) bool
}

// dedupForm is one key form of ConcurrentDedup, called on key i of a set
// of integer keys (which have every form).
type dedupForm struct {
	name string
	call func(d ConcurrentDedup, ks keySet, i int) bool
}

var dedupForms = []dedupForm{
	{"TestAndAddConcurrent", func(d ConcurrentDedup, ks keySet, i int) bool { return d.TestAndAddConcurrent(ks.b[i]) }},
	{"TestAndAddHashConcurrent", func(d ConcurrentDedup, ks keySet, i int) bool { return d.TestAndAddHashConcurrent(ks.h[i]) }},
	{"TestAndAddUint64Concurrent", func(d ConcurrentDedup, ks keySet, i int) bool { return d.TestAndAddUint64Concurrent(ks.u[i]) }},
	{"TestAndAddStringConcurrent", func(d ConcurrentDedup, ks keySet, i int) bool { return d.TestAndAddStringConcurrent(ks.s[i]) }},
}

// concurrentDedup checks the ConcurrentDedup forms of a type that has
// them: alone, each answers what the plain TestAndAddHash answers and a
// second call answers true; raced, many goroutines calling the four
// forms on the same new keys at once leave every key present to its
// caller at once, and for every key at least one call answers false.
//
// The race's keys are checked first to be new whatever the order: none
// tests present in a filter of the others alone, so one of its bits (or
// counters) is set by its own calls only, and the first call to set it
// must see it unset. The verdict then holds for every schedule.
func (s *suite[T]) concurrentDedup(t *testing.T) {
	f := s.new(t, n, p)
	d, ok := any(f).(ConcurrentDedup)
	if !ok {
		t.Skipf("%s has no concurrent TestAndAdd", s.fam.Name)
	}
	if _, ok := any(f).(Concurrent); !ok {
		t.Fatalf("%s has the concurrent TestAndAdd forms but not the Concurrent ones", s.fam.Name)
	}
	g := s.keys(18)
	seq := g.uints(400)
	twin := s.new(t, n, p)
	for i := range seq.u {
		form := dedupForms[i%len(dedupForms)]
		want := twin.TestAndAddHash(seq.h[i])
		if got := form.call(d, seq, i); got != want {
			t.Fatalf("%s: %s of key %d answered %v, plain TestAndAddHash %v", s.fam.Name, form.name, i, got, want)
		}
		if !form.call(d, seq, i) {
			t.Fatalf("%s: a second %s of key %d answered absent", s.fam.Name, form.name, i)
		}
	}
	s.allPresent(t, f, "after concurrent TestAndAdd, alone", seq)

	const racers, keys, rounds = 8, 64, 6
	race := g.uints(keys)
	for i := range race.h {
		others := s.new(t, n, p)
		for j, h := range race.h {
			if j != i {
				others.AddHash(h)
			}
		}
		if others.TestHash(race.h[i]) {
			t.Fatalf("%s: race key %d is a false positive of the other %d keys: the check needs keys that are new in every order", s.fam.Name, i, keys-1)
		}
	}
	for round := range rounds {
		f := s.new(t, n, p)
		d, c := any(f).(ConcurrentDedup), any(f).(Concurrent)
		var absent [keys]atomic.Int32
		start := make(chan struct{})
		var wg sync.WaitGroup
		for w := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				form := dedupForms[(w+round)%len(dedupForms)]
				// Even rounds: every racer the same order, so calls for
				// one key meet; odd rounds: racers start apart.
				off := 0
				if round%2 == 1 {
					off = w * keys / racers
				}
				<-start
				for j := range keys {
					i := (j + off) % keys
					if !form.call(d, race, i) {
						absent[i].Add(1)
					}
					if !c.TestHashConcurrent(race.h[i]) {
						t.Errorf("%s: round %d: key %d absent to its own caller after %s", s.fam.Name, round, i, form.name)
						return
					}
				}
			}()
		}
		close(start)
		wg.Wait()
		for i := range absent {
			if absent[i].Load() == 0 {
				t.Errorf("%s: round %d: all %d racing calls for new key %d answered present", s.fam.Name, round, racers, i)
			}
		}
		s.allPresent(t, f, "after racing concurrent TestAndAdd", race)
	}
}
