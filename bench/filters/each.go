package filters

import (
	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/classic"
	"github.com/filterengine/filterengine/counting"
	"github.com/filterengine/filterengine/shifting"
)

// The single-key loops of our families, written out per type: in
// batched[F] they would call F's Add and Test through the generic
// dictionary, one indirect call per key to a method that then cannot
// inline, where a caller holding the concrete type inlines the method
// and calls the kernel directly. batched's AddEach and TestEach call
// these through its each field, one indirect call per batch. The
// constructors are noinline: inlined into their callers, their closures
// would be compiled again there, and those copies do not inline the
// methods.

type eachCalls struct {
	add  func(keys [][]byte)
	test func(keys [][]byte) int
}

//go:noinline
func blockedEach(f *blocked.Filter) eachCalls {
	return eachCalls{
		add: func(keys [][]byte) {
			for _, k := range keys {
				f.Add(k)
			}
		},
		test: func(keys [][]byte) (hits int) {
			for _, k := range keys {
				if f.Test(k) {
					hits++
				}
			}
			return hits
		},
	}
}

//go:noinline
func classicEach(f *classic.Filter) eachCalls {
	return eachCalls{
		add: func(keys [][]byte) {
			for _, k := range keys {
				f.Add(k)
			}
		},
		test: func(keys [][]byte) (hits int) {
			for _, k := range keys {
				if f.Test(k) {
					hits++
				}
			}
			return hits
		},
	}
}

//go:noinline
func shiftingEach(f *shifting.Filter) eachCalls {
	return eachCalls{
		add: func(keys [][]byte) {
			for _, k := range keys {
				f.Add(k)
			}
		},
		test: func(keys [][]byte) (hits int) {
			for _, k := range keys {
				if f.Test(k) {
					hits++
				}
			}
			return hits
		},
	}
}

//go:noinline
func countingEach(f *counting.Filter) eachCalls {
	return eachCalls{
		add: func(keys [][]byte) {
			for _, k := range keys {
				f.Add(k)
			}
		},
		test: func(keys [][]byte) (hits int) {
			for _, k := range keys {
				if f.Test(k) {
					hits++
				}
			}
			return hits
		},
	}
}
