package counting

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

// levelsAndWidths runs f at every kernel level for 4-bit and 8-bit
// counters.
func levelsAndWidths(t *testing.T, f func(t *testing.T, bits int)) {
	kerneltest.ForEachLevel(t, func(t *testing.T) { widths(t, f) })
}

// checkDrained reports every message the goroutines sent on errs (closing
// it) and, unless a counter saturated, that every counter of f is zero
// again after they removed all their keys.
func checkDrained(t *testing.T, f *Filter, errs chan string) {
	t.Helper()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if sat := f.Saturated(); sat != 0 {
		t.Logf("%d counters saturated; skipping the all-zero check", sat)
	} else if nz := f.Nonzero(); nz != 0 {
		t.Errorf("%d counters nonzero after every goroutine removed its keys", nz)
	}
}

// Eight goroutines add and remove their own distinct keys through the
// *Concurrent forms in random
// interleavings (some keys several times). After every operation each
// key the goroutine currently holds tests present; at the end, with every
// key removed, every counter is zero again (nothing saturates at this
// load), so no update was lost or torn. Held keys are also tested in
// batches of every tail length, at every kernel level.
func TestConcurrentAddRemove(t *testing.T) {
	levelsAndWidths(t, func(t *testing.T, bits int) {
		const goroutines, ops = 8, 3000
		f := mustNew(t, goroutines*ops/2, 0.01, WithCounterBits(bits))
		var wg sync.WaitGroup
		errs := make(chan string, goroutines)
		for g := range goroutines {
			wg.Go(func() {
				r := rand.New(rand.NewPCG(uint64(g), 99))
				held := map[uint64]int{} // hash -> times added and not removed
				var keys []uint64
				out := make([]bool, 1000)
				for op := range ops {
					switch x := r.IntN(10); {
					case x < 5 || len(keys) == 0: // a new key
						h := r.Uint64()
						keys = append(keys, h)
						held[h]++
						if op%2 == 0 {
							f.AddHashConcurrent(h)
						} else {
							f.TestAndAddHashConcurrent(h)
						}
						if !f.TestHash(h) {
							errs <- "a key just added tests absent"
							return
						}
					case x < 7: // add a held key again
						h := keys[r.IntN(len(keys))]
						held[h]++
						if !f.TestAndAddHashConcurrent(h) {
							errs <- "TestAndAdd of a held key reported absent"
							return
						}
					default: // remove one insertion of a held key
						i := r.IntN(len(keys))
						h := keys[i]
						if !f.RemoveHashConcurrent(h) {
							errs <- "Remove of a held key failed"
							return
						}
						if held[h]--; held[h] == 0 {
							delete(held, h)
							keys[i] = keys[len(keys)-1]
							keys = keys[:len(keys)-1]
						}
					}
					if op%97 == 0 {
						for _, batch := range kerneltest.Batches(keys) {
							if n := f.TestHashes(batch, out); n != len(batch) {
								errs <- "a held key tests absent in a batch"
								return
							}
						}
					}
				}
				for h, c := range held {
					for range c {
						if !f.RemoveHashConcurrent(h) {
							errs <- "final Remove of a held key failed"
							return
						}
					}
				}
			})
		}
		wg.Wait()
		checkDrained(t, f, errs)
	})
}

// Concurrent increments of the same counters are never lost: 8 goroutines
// add one key through AddConcurrent, 20 times each with 8-bit counters
// and once each with 4-bit ones (8 adds, below the saturation at 15 that
// would hide a lost increment), and its count equals that of a filter
// given the same adds sequentially.
func TestConcurrentSameKey(t *testing.T) {
	levelsAndWidths(t, func(t *testing.T, bits int) {
		f := mustNew(t, 100, 0.01, WithCounterBits(bits))
		g, _ := NewMK(f.M(), f.K(), WithCounterBits(bits))
		const goroutines = 8
		each := 20
		if bits == 4 {
			each = 1
		}
		var wg sync.WaitGroup
		for range goroutines {
			wg.Go(func() {
				for range each {
					f.AddConcurrent([]byte("shared"))
				}
			})
		}
		wg.Wait()
		for range goroutines * each {
			g.Add([]byte("shared"))
		}
		if f.Count([]byte("shared")) != g.Count([]byte("shared")) {
			t.Errorf("concurrent count %d, sequential %d", f.Count([]byte("shared")), g.Count([]byte("shared")))
		}
	})
}

// TestConcurrentBatches runs every concurrent batch form at once on every
// kernel level: each goroutine adds its own keys in batches of every tail
// length, tests them while the others write, and removes them again.
// Afterwards every counter is zero and nothing was reported absent while
// held. Under -race the generic level checks that the batch test and the
// prefetch read counters atomically (a plain read there fails this
// test); the AVX2 and AVX-512 kernels take every length, tails included,
// in assembly with aligned 8-byte loads, which x86 never tears and the
// race detector does not see.
func TestConcurrentBatches(t *testing.T) {
	levelsAndWidths(t, func(t *testing.T, bits int) {
		const goroutines, per = 4, 2000
		f := mustNew(t, goroutines*per, 0.01, WithCounterBits(bits))
		var wg sync.WaitGroup
		errs := make(chan string, 4*goroutines)
		for g := range goroutines {
			wg.Go(func() {
				ks := make([]uint64, per)
				for i := range ks {
					ks[i] = uint64(g)<<32 | uint64(i)
				}
				hs := randomHashes(per, uint64(g)+100)
				out := make([]bool, 1000)
				for _, b := range kerneltest.Batches(ks) {
					f.AddUint64sConcurrent(b)
				}
				for _, b := range kerneltest.Batches(hs) {
					f.AddHashesConcurrent(b)
				}
				for _, b := range kerneltest.Batches(ks) {
					if n := f.TestUint64s(b, out); n != len(b) {
						errs <- "an added key tests absent in a batch"
					}
				}
				for _, b := range kerneltest.Batches(hs) {
					if n := f.RemoveHashesConcurrent(b, out); n != len(b) {
						errs <- "a batch Remove of held keys failed"
					}
				}
				for _, b := range kerneltest.Batches(ks) {
					if n := f.RemoveUint64sConcurrent(b, out); n != len(b) {
						errs <- "a batch Remove of held keys failed"
					}
				}
			})
		}
		wg.Wait()
		checkDrained(t, f, errs)
	})
}

// The single-key byte forms from many goroutines at once: each adds,
// tests and removes its own keys with AddConcurrent, TestAndAddConcurrent
// and RemoveConcurrent; nothing held tests absent and every counter is
// zero at the end.
func TestConcurrentSingleKeyForms(t *testing.T) {
	levelsAndWidths(t, func(t *testing.T, bits int) {
		const goroutines, per = 4, 1500
		f := mustNew(t, goroutines*per, 0.01, WithCounterBits(bits))
		var wg sync.WaitGroup
		errs := make(chan string, 4*goroutines)
		for g := range goroutines {
			wg.Go(func() {
				for i := range per {
					key := fmt.Appendf(nil, "key %d/%d", g, i)
					f.AddConcurrent(key)
					if !f.TestAndAddConcurrent(key) || !f.TestString(string(key)) {
						errs <- "a key just added tests absent"
						return
					}
				}
				for i := range per {
					key := fmt.Appendf(nil, "key %d/%d", g, i)
					if !f.RemoveConcurrent(key) || !f.RemoveConcurrent(key) {
						errs <- "Remove of a held key failed"
						return
					}
				}
			})
		}
		wg.Wait()
		checkDrained(t, f, errs)
	})
}

// The contract's *Concurrent forms from many goroutines at once: each
// goroutine adds its own keys through AddConcurrent, AddHashConcurrent,
// AddHashesConcurrent and AddUint64sConcurrent and tests them with
// TestConcurrent and TestHashConcurrent while the others write.
func TestConcurrentForms(t *testing.T) {
	levelsAndWidths(t, func(t *testing.T, bits int) {
		const goroutines, per = 4, 1000
		f := mustNew(t, 4*goroutines*per, 0.01, WithCounterBits(bits))
		var wg sync.WaitGroup
		errs := make(chan string, goroutines)
		for g := range goroutines {
			wg.Go(func() {
				hs := randomHashes(per, uint64(g)+100)
				ks := make([]uint64, per)
				for i := range ks {
					ks[i] = uint64(g)<<40 | uint64(i)
				}
				f.AddHashesConcurrent(hs[:per/2])
				f.AddUint64sConcurrent(ks)
				for i := range per {
					key := fmt.Appendf(nil, "key %d/%d", g, i)
					f.AddConcurrent(key)
					if i >= per/2 {
						f.AddHashConcurrent(hs[i])
					}
					if !f.TestConcurrent(key) || !f.TestHashConcurrent(hs[i]) || !f.TestUint64(ks[i]) {
						errs <- "a key added by a *Concurrent form tests absent"
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Fatal(e)
		}
	})
}
