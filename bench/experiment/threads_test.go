package experiment

import (
	"context"
	"sync/atomic"
	"testing"
)

// Experiment t: two rows (add, test) per family and goroutine count, no
// false negatives after the concurrent adds, the machine's CPUs recorded.
func TestThreads(t *testing.T) {
	c := smallConfig(t, "t")
	c.ThreadsN, c.Goroutines = 5_000, []int{1, 3}
	r, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	fams := concurrentFamilies()
	if len(r.Threads) != (2*len(fams)+1)*len(c.Goroutines) || r.Threads[0].Family != ThreadsBaseline {
		t.Fatalf("%d rows: %+v", len(r.Threads), r.Threads)
	}
	for _, row := range r.Threads {
		if row.FalseNegatives != 0 || !(row.MKeysPerSec > 0) || row.CPUs < 1 || row.MaxProcs < 1 || row.Call == "" {
			t.Errorf("%+v", row)
		}
	}
}

// onGoroutines calls op once per key, whatever the split, and counts its
// true answers.
func TestOnGoroutines(t *testing.T) {
	keys := make([][]byte, 1001)
	for i := range keys {
		keys[i] = []byte{byte(i)}
	}
	for _, g := range []int{1, 2, 7, 1001} {
		var calls atomic.Int64
		_, hits := onGoroutines(g, keys, func(k []byte) bool { calls.Add(1); return k[0]%2 == 0 })
		if calls.Load() != 1001 || hits != 501 {
			t.Errorf("g = %d: %d calls, %d true, want 1001 and 501", g, calls.Load(), hits)
		}
	}
}
