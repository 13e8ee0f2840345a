// Package modeltest checks a family's model and sizing functions on
// extreme inputs: every call returns (a deadline detects a hang, it does
// not judge speed), none panics, rates stay in [0, 1] and grow with the
// keys, and a constructor in another goroutine still returns afterwards
// (no call left a lock held). Only _test files import it.
package modeltest

import (
	"fmt"
	"math"
	"testing"
	"time"
)

// Deadline is how long the calls of one Run may take before the test
// names those that have not returned: generous, as it detects hangs on
// a loaded machine, not slowness.
const Deadline = 20 * time.Second

// Ns are the key counts every rate of n is evaluated at, in increasing
// order: 0, 1, small and large counts, the values past 2^53 and 2^62 at
// which float and int conversions break, and the largest uint64.
var Ns = []uint64{0, 1, 2, 10, 100, 1000, 1e4, 1e5, 1e6, 1e7, 1e9, 1 << 40, 1 << 53, 1<<53 + 1, 1 << 62, 1 << 63, math.MaxUint64}

// Rate is a rate function of the key count.
type Rate struct {
	Name string
	F    func(n uint64) float64
}

// Call is a call that must return without panicking; an error it
// returns is fine (a sizing may refuse).
type Call struct {
	Name string
	F    func() error
}

// Run evaluates every rate at every n of Ns and makes every call, each
// in its own goroutine, all under one Deadline; it fails naming each
// that did not return, panicked, left [0, 1] or (for a rate) fell as n
// grew. Then it runs construct, in another goroutine under a Deadline of
// its own.
func Run(t *testing.T, rates []Rate, calls []Call, construct func() error) {
	t.Helper()
	type result struct {
		name string
		err  error
	}
	var jobs []Call
	for _, r := range rates {
		jobs = append(jobs, Call{r.Name, func() error {
			prev := 0.0
			for _, n := range Ns {
				v := r.F(n)
				if !(v >= 0 && v <= 1) {
					return fmt.Errorf("n = %d: %v outside [0, 1]", n, v)
				}
				if v < prev {
					return fmt.Errorf("n = %d: %v, below %v at a smaller n", n, v, prev)
				}
				prev = v
			}
			return nil
		}})
	}
	for _, c := range calls {
		jobs = append(jobs, Call{c.Name, func() error {
			_ = c.F() // a call's own error is an answer
			return nil
		}})
	}
	done := make(chan result, len(jobs))
	for _, j := range jobs {
		go func() {
			defer func() {
				if p := recover(); p != nil {
					done <- result{j.Name, fmt.Errorf("panic: %v", p)}
				}
			}()
			done <- result{j.Name, j.F()}
		}()
	}
	pending := map[string]bool{}
	for _, j := range jobs {
		pending[j.Name] = true
	}
	timeout := time.After(Deadline)
	for len(pending) > 0 {
		select {
		case r := <-done:
			delete(pending, r.name)
			if r.err != nil {
				t.Errorf("%s: %v", r.name, r.err)
			}
		case <-timeout:
			for name := range pending {
				t.Errorf("%s did not return within %v", name, Deadline)
			}
			return
		}
	}
	built := make(chan error, 1)
	go func() { built <- construct() }()
	select {
	case err := <-built:
		if err != nil {
			t.Errorf("constructor after the calls: %v", err)
		}
	case <-time.After(Deadline):
		t.Errorf("a constructor did not return within %v after the calls", Deadline)
	}
}
