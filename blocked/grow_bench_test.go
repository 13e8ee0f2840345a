package blocked

import (
	"fmt"
	"testing"

	"github.com/filterengine/filterengine/engine"
)

// growQueries returns n query keys, half of them members (drawn from
// added) and half absent, shuffled: the mix of Scalable's and Window's targets.
func growQueries(added []uint64, n int) []uint64 {
	qs := randomKeys(99, n)
	pick := randomKeys(98, n)
	for i := 0; i < n; i += 2 {
		qs[i] = added[pick[i]%uint64(len(added))]
	}
	return qs
}

// streamBatches runs test over qs one batch at a time, wrapping around:
// the queries stream over the whole filter instead of a cached ring.
func streamBatches(b *testing.B, qs []uint64, test func(ks []uint64, out []bool)) {
	out := make([]bool, benchBatch)
	i := 0
	for b.Loop() {
		if i+benchBatch > len(qs) {
			i = 0
		}
		test(qs[i:i+benchBatch], out)
		i += benchBatch
	}
	reportPerKey(b, benchBatch)
}

// streamKeys runs test on every key of qs in turn, benchBatch keys per op.
func streamKeys(b *testing.B, qs []uint64, test func(k uint64) bool) {
	i, hits := 0, 0
	for b.Loop() {
		if i+benchBatch > len(qs) {
			i = 0
		}
		for _, k := range qs[i : i+benchBatch] {
			if test(k) {
				hits++
			}
		}
		i += benchBatch
	}
	reportPerKey(b, benchBatch)
	_ = hits
}

// The Scalable target: 1e7 keys into NewScalable(1e3, 0.01) (14 stages)
// beside one blocked filter built for 1e7 keys, tested on 1e6 queries of
// which half are members; batch and per key.
func BenchmarkScalable(b *testing.B) {
	const n = 10_000_000
	added := randomKeys(1, n)
	qs := growQueries(added, 1<<20)
	s, err := NewScalable(1e3, 0.01)
	if err != nil {
		b.Fatal(err)
	}
	s.AddUint64s(added)
	one, err := New(n, 0.01)
	if err != nil {
		b.Fatal(err)
	}
	one.AddUint64s(added)
	b.Run(fmt.Sprintf("scalable/stages=%d/batch", s.Stages()), func(b *testing.B) {
		eachLevel(b, func(b *testing.B) { streamBatches(b, qs, func(ks []uint64, out []bool) { s.TestUint64s(ks, out) }) })
	})
	b.Run("blocked/batch", func(b *testing.B) {
		eachLevel(b, func(b *testing.B) { streamBatches(b, qs, func(ks []uint64, out []bool) { one.TestUint64s(ks, out) }) })
	})
	b.Run(fmt.Sprintf("scalable/stages=%d/perkey", s.Stages()), func(b *testing.B) {
		eachLevel(b, func(b *testing.B) { streamKeys(b, qs, s.TestUint64) })
	})
	b.Run("blocked/perkey", func(b *testing.B) {
		streamKeys(b, qs, func(k uint64) bool { return one.TestHash(hashUint64(k)) })
	})
	// The floor of the stages' layout: one blocked filter as large as all
	// the stages together (42 MB against the 12 MB of "blocked") with the
	// same keys, so one line per key at the Scalable's footprint.
	big, err := NewMK(s.M(), stageK)
	if err != nil {
		b.Fatal(err)
	}
	big.AddUint64s(added)
	b.Run("blocked-of-scalable-bytes/batch", func(b *testing.B) {
		eachLevel(b, func(b *testing.B) { streamBatches(b, qs, func(ks []uint64, out []bool) { big.TestUint64s(ks, out) }) })
	})
	b.Run("blocked-of-scalable-bytes/perkey", func(b *testing.B) {
		streamKeys(b, qs, func(k uint64) bool { return big.TestHash(hashUint64(k)) })
	})
	// Add grows a filter from empty: opening stages (their allocation and
	// first touch) is part of what Add costs a filter that grows, so this
	// one times it, unlike the fixed-size filters' Add benchmarks.
	b.Run("scalable/add", func(b *testing.B) {
		for b.Loop() {
			t, _ := NewScalable(1e3, 0.01)
			t.AddUint64s(added[:1e6])
		}
		reportPerKey(b, 1e6)
	})
}

func hashUint64(k uint64) uint64 { return engine.HashUint64(k) }

// The Window target: TestUint64s over 4 generations of n = 1e6 keys each
// beside one blocked filter of the same n, on queries half of which are
// members (spread over the generations).
func BenchmarkWindow(b *testing.B) {
	const n, g = 1_000_000, 4
	added := randomKeys(1, n*g)
	qs := growQueries(added, 1<<20)
	w, err := NewWindow(n, 0.01, g)
	if err != nil {
		b.Fatal(err)
	}
	w.AddUint64s(added)
	one, err := New(n, 0.01)
	if err != nil {
		b.Fatal(err)
	}
	one.AddUint64s(added[:n])
	oneQs := growQueries(added[:n], 1<<20)
	b.Run("window/generations=4/batch", func(b *testing.B) {
		eachLevel(b, func(b *testing.B) { streamBatches(b, qs, func(ks []uint64, out []bool) { w.TestUint64s(ks, out) }) })
	})
	b.Run("blocked/batch", func(b *testing.B) {
		eachLevel(b, func(b *testing.B) {
			streamBatches(b, oneQs, func(ks []uint64, out []bool) { one.TestUint64s(ks, out) })
		})
	})
	b.Run("window/generations=4/perkey", func(b *testing.B) { streamKeys(b, qs, w.TestUint64) })
	b.Run("blocked/perkey", func(b *testing.B) {
		streamKeys(b, oneQs, func(k uint64) bool { return one.TestHash(hashUint64(k)) })
	})
	b.Run("window/add", func(b *testing.B) {
		for b.Loop() {
			w.AddUint64s(added[:1e6])
		}
		reportPerKey(b, 1e6)
	})
}
