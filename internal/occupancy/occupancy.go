// Package occupancy is the exact false-positive rate of one block of a
// blocked Bloom filter: b bits (or cells), i keys of k independent
// uniform probes each, and a foreign key whose k probes must all land on
// bits the i*k probes set. The number of bits set follows the occupancy
// distribution (balls into b bins), and the rate is E[(set/b)^k] under
// it; the mean alone, (E[set]/b)^k, is several percent low at b = 128.
// blocked.NarrowFPR (and so counting's model) and spatial's line-local
// model share it.
package occupancy

import (
	"math"
	"sync"
	"sync/atomic"
)

// SaturatedProbes is the number of probes per bit from which a block
// counts as full: a bit then stays clear with chance below e^-40, and
// the rate is 1 to double precision.
const SaturatedProbes = 40

// Saturated reports whether a block of b bits holding keys keys of k
// probes each is full, in floating point so that no key count overflows.
func Saturated(keys float64, b, k int) bool {
	return keys*float64(k) >= SaturatedProbes*float64(b)
}

// Table holds, for blocks of b bits and k probes per key, the rate of a
// block holding i keys, extended on demand: the distribution of the
// number of set bits after i*k probes (dist[s] = P(s bits set)) and
// rate[i] = sum over s of dist[s] * (s/b)^k. Readers load the published
// rates without a lock; an extension takes mu. It never grows past the
// saturated load, 40*b/k keys, so the work of one call is bounded (at
// most 40*b*(b+1) steps of the distribution).
type Table struct {
	mu   sync.Mutex
	b, k int
	dist []float64 // under mu
	pow  []float64 // (s/b)^k
	rate atomic.Pointer[[]float64]
}

type key struct{ b, k int }

// tables memoises the tables by block size and k.
var tables sync.Map

// Of returns the shared table of blocks of b bits (b >= 1) and k >= 1
// probes.
func Of(b, k int) *Table {
	if t, ok := tables.Load(key{b, k}); ok {
		return t.(*Table)
	}
	t := &Table{b: b, k: k, dist: make([]float64, b+1), pow: make([]float64, b+1)}
	t.rate.Store(&[]float64{0})
	t.dist[0] = 1
	for s := range t.pow {
		t.pow[s] = math.Pow(float64(s)/float64(b), float64(k))
	}
	got, _ := tables.LoadOrStore(key{b, k}, t)
	return got.(*Table)
}

// At returns the rate of a block holding keys keys (a whole number,
// possibly beyond any integer type): in [0, 1], nondecreasing in keys,
// and 1 once the block is saturated.
func (t *Table) At(keys float64) float64 {
	if Saturated(keys, t.b, t.k) {
		return 1
	}
	i := int(keys)
	if r := *t.rate.Load(); i < len(r) {
		return r[i]
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	b := float64(t.b)
	rate := *t.rate.Load()
	for len(rate) <= i {
		for range t.k { // one probe: s stays with chance s/b, grows by one otherwise
			for s := t.b; s >= 0; s-- {
				stay := t.dist[s] * float64(s) / b
				if s > 0 {
					stay += t.dist[s-1] * float64(t.b-s+1) / b
				}
				t.dist[s] = stay
			}
		}
		var r float64
		for s, p := range t.dist {
			r += p * t.pow[s]
		}
		// Readers hold shorter headers of the same array, and an append
		// writes only past their length.
		rate = append(rate, min(r, 1))
	}
	t.rate.Store(&rate)
	return rate[i]
}
