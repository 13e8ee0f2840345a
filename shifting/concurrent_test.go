package shifting

import (
	"sync"
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

// TestConcurrentAdd runs writers and readers of the lock-free methods at
// once (run under -race by make test) and then checks for false
// negatives, at every kernel level. Shifting's concurrent forms are
// single-key (each pair's two bits are separate atomic ORs), so there is
// no batch tail to cover.
func TestConcurrentAdd(t *testing.T) {
	kerneltest.ForEachLevel(t, testConcurrentAdd)
}

func testConcurrentAdd(t *testing.T) {
	for _, second := range []bool{false, true} {
		f, err := NewMK(1<<14, 6) // small: many pairs straddle words shared between goroutines
		if second {
			f, err = NewMK(1<<14, 6, WithSecondArray())
		}
		if err != nil {
			t.Fatal(err)
		}
		const workers, per = 4, 1000
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(2)
			go func() {
				defer wg.Done()
				for _, k := range members(memberBase+uint64(w)*per, per) {
					if w%2 == 0 {
						f.AddConcurrent(keyOf(k))
					} else {
						f.TestAndAdd(keyOf(k))
					}
				}
			}()
			go func() {
				defer wg.Done()
				for _, k := range members(memberBase+uint64(w)*per, per) {
					f.TestConcurrent(keyOf(k))
				}
			}()
		}
		wg.Wait()
		for _, k := range members(memberBase, workers*per) {
			if !f.Test(keyOf(k)) || !f.TestConcurrent(keyOf(k)) {
				t.Fatalf("second=%v: key %d lost", second, k)
			}
		}
	}
}
