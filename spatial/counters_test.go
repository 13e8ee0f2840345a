package spatial

import (
	"sync"
	"testing"
)

// TestCountersConcurrent: goroutines add single-key counts (through the
// packed word, crossing its flush threshold many times) and batch counts
// (straight to the wide counters) to the same areas at once; the totals
// are exact afterwards. Under -race (make test) it also checks the flush.
func TestCountersConcurrent(t *testing.T) {
	c := newCounters(2)
	const goroutines, perG = 4, 600_000 // 2.4e6 keys: the members field flushes twice, collisions often
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			area := uint32(1 + g%2)
			for i := range perG {
				if i%1000 == 999 {
					c.add(area, 100, 300, 7) // a batch
				} else {
					c.add(area, 1, 3, uint64(i%2))
				}
			}
		})
	}
	wg.Wait()
	singles, batches := uint64(perG-perG/1000), uint64(perG/1000)
	for area := 1; area <= 2; area++ {
		members, self, coll := c.area(area)
		per := uint64(goroutines / 2)
		// i%2 over the singles: i runs 0..perG-1 skipping i%1000 == 999 (odd).
		wantSelf := per * (uint64(perG/2) - batches + 7*batches)
		if members != per*(singles+100*batches) || coll != per*(3*singles+300*batches) || self != wantSelf {
			t.Errorf("area %d: members %d, collisions %d, self %d; want %d, %d, %d", area, members, coll, self,
				per*(singles+100*batches), per*(3*singles+300*batches), wantSelf)
		}
		if v := c[area].packed.Load(); v&packTest != 0 {
			t.Errorf("area %d: packed word %#x left at or above the flush threshold", area, v)
		}
	}
	if got, want := c.collisions(), uint64(goroutines)*(3*singles+300*batches); got != want {
		t.Errorf("collisions %d, want %d", got, want)
	}
}

// TestPackTest: packTest has exactly the bits of each field at or above
// packLimit.
func TestPackTest(t *testing.T) {
	for _, c := range []struct {
		shift uint
		bits  uint
	}{{0, packBits}, {packBits, packBits}, {2 * packBits, 64 - 2*packBits}} {
		for v := uint64(packLimit - 3); v < packLimit+3; v++ {
			if got := v<<c.shift&packTest != 0; got != (v >= packLimit) {
				t.Errorf("field at bit %d = %d: over %v", c.shift, v, got)
			}
		}
		top := uint64(1)<<c.bits - 1
		if top<<c.shift&packTest == 0 {
			t.Errorf("field at bit %d full not over the limit", c.shift)
		}
	}
}
