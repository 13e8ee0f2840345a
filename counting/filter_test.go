package counting

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/testkit/fprstat"
	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

func TestNewErrors(t *testing.T) {
	bad := []struct {
		name string
		f    func() (*Filter, error)
	}{
		{"n=0", func() (*Filter, error) { return New(0, 0.01) }},
		{"p=0", func() (*Filter, error) { return New(10, 0) }},
		{"p<0", func() (*Filter, error) { return New(10, -0.5) }},
		{"p=1", func() (*Filter, error) { return New(10, 1) }},
		{"p>1", func() (*Filter, error) { return New(10, 2) }},
		{"p=NaN", func() (*Filter, error) { return New(10, math.NaN()) }},
		{"p=Inf", func() (*Filter, error) { return New(10, math.Inf(1)) }},
		{"overflow", func() (*Filter, error) { return New(1<<62, 1e-9) }},
		{"m=0", func() (*Filter, error) { return NewMK(0, 3) }},
		{"k=0", func() (*Filter, error) { return NewMK(1000, 0) }},
		{"k>cap", func() (*Filter, error) { return NewMK(1000, engine.MaxK+1) }},
		{"m>cap", func() (*Filter, error) { return NewMK(engine.MaxBits+1, 3) }},
		{"counter bits", func() (*Filter, error) { return New(10, 0.01, WithCounterBits(5)) }},
		{"foreign option", func() (*Filter, error) { return New(10, 0.01, config.FamilyOption(struct{}{})) }},
	}
	for _, c := range bad {
		f, err := c.f()
		if err == nil || f != nil {
			t.Errorf("%s: got filter %v, error %v; want an error", c.name, f != nil, err)
		} else if !errors.Is(err, engine.ErrParam) {
			t.Errorf("%s: error %v does not wrap engine.ErrParam", c.name, err)
		}
	}
}

func TestNewMKGeometry(t *testing.T) {
	f, err := NewMK(1000, 7, WithCounterBits(8), engine.WithSeed(9))
	if err != nil {
		t.Fatal(err)
	}
	if f.Lines() != 16 || f.M() != 1024 || len(f.words) != 16*8 || f.SizeBytes() != 1024 || f.K() != 7 || f.CounterBits() != 8 || f.Seed() != 9 {
		t.Errorf("NewMK(1000, 7, 8-bit) = %d lines, %d counters, k %d, %d bits, seed %d",
			f.Lines(), f.M(), f.K(), f.CounterBits(), f.Seed())
	}
}

func TestHugePagesOption(t *testing.T) {
	f := mustNew(t, 1000, 0.01, engine.WithHugePages(engine.HugePagesNever))
	if f.HugePages() {
		t.Error("HugePagesNever filter lives in huge-page memory")
	}
	g := mustNew(t, 1000, 0.01, engine.WithHugePages(engine.HugePagesAlways))
	g.AddHash(1)
	if !g.TestHash(1) {
		t.Error("huge-page filter lost a key")
	}
	if err := g.Close(); err != nil {
		t.Error(err)
	}
}

// The batch test answers exactly what TestHash answers, on every level,
// for filters of assorted fill and geometry.
func TestBatchMatchesSingle(t *testing.T) {
	for _, c := range []struct {
		counters uint64
		k        uint32
		bits     int
		added    int
	}{{512, 1, 4, 5}, {1000, 7, 4, 300}, {1000, 13, 8, 100}, {1 << 16, 20, 4, 5000}, {1 << 12, engine.MaxK, 8, 200}, {1 << 14, 6, 8, 2000}, {1 << 14, 6, 4, 2000}} {
		f, err := NewMK(c.counters, c.k, WithCounterBits(c.bits))
		if err != nil {
			t.Fatal(err)
		}
		f.AddHashes(randomHashes(c.added, 1))
		hs := append(randomHashes(3000, 2), randomHashes(c.added, 1)...)
		want := make([]bool, len(hs))
		wantHits := 0
		for i, h := range hs {
			want[i] = f.TestHash(h)
			if want[i] {
				wantHits++
			}
			// The straight k = 6 path of TestHash against the round
			// walker that every other k takes.
			ln := asm.CountingLine(f.words, h, f.lines)
			if walk := asm.CountingTest(ln, h, f.k, f.wide); walk != want[i] {
				t.Fatalf("%+v hash %#x: TestHash %v, asm.CountingTest %v", c, h, want[i], walk)
			}
		}
		kerneltest.ForEachLevel(t, func(t *testing.T) {
			out := make([]bool, len(hs))
			if got := f.TestHashes(hs, out); got != wantHits || !slices.Equal(out, want) {
				t.Errorf("%+v: TestHashes gave %d hits, TestHash %d (answers equal: %v)", c, got, wantHits, slices.Equal(out, want))
			}
		})
	}
}

// Adding keys and removing the same keys restores every counter exactly
// when nothing saturated, whatever was in the filter before.
func TestAddRemoveRestores(t *testing.T) {
	widths(t, func(t *testing.T, bits int) {
		f := mustNew(t, 10000, 0.01, WithCounterBits(bits))
		base := randomHashes(5000, 3)
		f.AddHashes(base)
		before := f.wordsCopy()
		extra := randomHashes(5000, 4)
		f.AddHashes(extra)
		f.AddHashes(extra[:100]) // some twice
		if f.Saturated() != 0 {
			t.Skipf("%d counters saturated; the property needs none", f.Saturated())
		}
		out := make([]bool, len(extra))
		if n := f.RemoveHashes(extra, out); n != len(extra) {
			t.Fatalf("RemoveHashes removed %d of %d added keys", n, len(extra))
		}
		for _, h := range extra[:100] {
			if !f.RemoveHash(h) {
				t.Fatal("second Remove of a key added twice failed")
			}
		}
		if !slices.Equal(f.words, before) {
			t.Error("adding then removing the same keys did not restore the counters")
		}
		if n := f.RemoveHashes(base, out); n != len(base) {
			t.Fatalf("removed %d of %d base keys", n, len(base))
		}
		if f.Nonzero() != 0 {
			t.Errorf("%d counters nonzero after removing every key", f.Nonzero())
		}
	})
}

// A key added 20 times saturates its counters; 20 removes leave it
// present because saturated counters are never decremented.
func TestStickySaturation(t *testing.T) {
	widths(t, func(t *testing.T, bits int) {
		f := mustNew(t, 1000, 0.01, WithCounterBits(bits))
		key := []byte("hot key")
		for range 20 {
			f.Add(key)
		}
		wantCount := uint32(min(20, 1<<bits-1))
		if got := f.Count(key); got != wantCount {
			t.Errorf("Count after 20 adds = %d, want %d", got, wantCount)
		}
		if bits == 4 && f.Saturated() != uint64(f.distinctCells(key)) {
			t.Errorf("Saturated() = %d, want the key's %d cells", f.Saturated(), f.distinctCells(key))
		}
		for i := range 20 {
			if !f.Remove(key) {
				t.Fatalf("Remove %d of a key added 20 times failed", i+1)
			}
		}
		if bits == 4 && !f.Test(key) {
			t.Error("key absent after 20 adds and 20 removes: saturation was not sticky")
		}
		if bits == 8 && f.Count(key) != 0 {
			t.Errorf("8-bit counters did not saturate at 20, yet Count = %d after removing all", f.Count(key))
		}
	})
}

// distinctCells is how many different counters a key has.
func (f *Filter) distinctCells(key []byte) int {
	pos := asm.NarrowPositions(engine.HashSeed(key, f.seed), f.k, asm.CountingLogBits(f.wide))
	var seen [2]uint64
	for _, q := range pos[:f.k] {
		seen[q>>6] |= 1 << (q & 63)
	}
	return popcount(seen[0]) + popcount(seen[1])
}

func TestCountAndTestAndAdd(t *testing.T) {
	f := mustNew(t, 100000, 0.001)
	key := []byte("counted")
	if f.TestAndAdd(key) {
		t.Error("TestAndAdd of a new key in an empty filter reported present")
	}
	if !f.TestAndAdd(key) {
		t.Error("TestAndAdd of a key just added reported absent")
	}
	f.Add(key)
	if got := f.Count(key); got != 3 {
		t.Errorf("Count after 3 inserts = %d", got)
	}
	f.Remove(key)
	if got := f.Count(key); got != 2 {
		t.Errorf("Count after 3 inserts and 1 remove = %d", got)
	}
	if f.Count([]byte("never")) != 0 {
		t.Error("Count of a key never added in a near-empty filter is not 0")
	}
}

// The measured false-positive rate on 1e6 absent keys lies within the
// 99.9% binomial bounds of ModelFPR for the filter actually built.
func TestFPRWithinModel(t *testing.T) {
	for _, c := range []struct {
		n    uint64
		p    float64
		bits int
	}{{100000, 0.01, 4}, {50000, 0.001, 4}, {100000, 0.01, 8}, {50000, 0.001, 8}, {100000, 0.02, 8}} {
		f := mustNew(t, c.n, c.p, WithCounterBits(c.bits))
		for i := range c.n {
			f.AddHash(engine.HashUint64(i))
		}
		const trials = 1000000
		hs := make([]uint64, 4096)
		out := make([]bool, len(hs))
		fp := 0
		for base := uint64(0); base < trials; base += uint64(len(hs)) {
			m := min(uint64(len(hs)), trials-base)
			for i := range m {
				hs[i] = engine.HashUint64(1<<40 + base + i)
			}
			fp += f.TestHashes(hs[:m], out[:m])
		}
		model := f.ModelFPR(c.n)
		lo, hi := fprstat.BinomialBounds(trials, model, fprstat.Z999)
		t.Logf("%d-bit, p = %v: k %d, %.2f counters per key: %.4f%% measured on %d absent keys, model %.4f%%",
			c.bits, c.p, f.K(), float64(f.M())/float64(c.n), 100*float64(fp)/trials, trials, 100*model)
		if float64(fp) < lo || float64(fp) > hi {
			t.Errorf("%+v: %d false positives in %d, model %.5f allows [%.0f, %.0f]", c, fp, trials, model, lo, hi)
		}
		if model > c.p {
			t.Errorf("%+v: sized filter's model FPR %.5f above the target", c, model)
		}
	}
}

func TestEstimateCount(t *testing.T) {
	f := mustNew(t, 100000, 0.01)
	f.AddHashes(randomHashes(50000, 8))
	if est := f.EstimatedCount(); est < 48000 || est > 52000 {
		t.Errorf("EstimateCount = %.0f for 50000 keys", est)
	}
}

// A key's counters are exactly its asm.NarrowPositions in its line, for
// every k across the multiplier rounds (9 probes a round for 4-bit
// counters, 10 for 8-bit) and both widths: adding one key to an empty
// filter raises those counters by how often they occur and no other
// (through AddHash or TestAndAdd), Count, Test and TestAndAdd see them,
// and Remove clears them all.
func TestCountersAreNarrowPositions(t *testing.T) {
	widths(t, func(t *testing.T, bits int) {
		for k := uint32(1); k <= 31; k++ {
			f, err := NewMK(4*128, k, WithCounterBits(bits))
			if err != nil {
				t.Fatal(err)
			}
			for j, h := range randomHashes(100, uint64(k)) {
				if j%2 == 0 {
					f.AddHash(h)
				} else if f.TestAndAddHash(h) {
					t.Fatalf("k=%d: TestAndAdd on an empty filter reported present", k)
				}
				line := asm.NarrowBlock(h, f.lines)
				pos := asm.NarrowPositions(h, k, asm.CountingLogBits(f.wide))
				want := make([]uint64, f.lines*lineCounters(f.wide))
				for _, q := range pos[:k] {
					want[line*lineCounters(f.wide)+uint64(q)]++
				}
				for c, w := range want {
					word, shift := place(uint64(c)%lineCounters(f.wide), f.wide)
					l := uint64(c) / lineCounters(f.wide)
					if got := f.words[l*8+word] >> shift & f.counter; got != w {
						t.Fatalf("k=%d h=%#x: counter %d is %d, want %d", k, h, c, got, w)
					}
				}
				least := uint64(k) // a counter probed by all k probes
				for _, q := range pos[:k] {
					least = min(least, want[line*lineCounters(f.wide)+uint64(q)])
				}
				if !f.TestHash(h) || uint64(f.CountHash(h)) != least || !f.TestAndAddHash(h) || uint64(f.CountHash(h)) != 2*least {
					t.Fatalf("k=%d: the added key does not test present with count %d, then %d", k, least, 2*least)
				}
				if !f.RemoveHash(h) || !f.RemoveHash(h) || f.Nonzero() != 0 || f.RemoveHash(h) {
					t.Fatalf("k=%d: removing the key twice leaves %d nonzero counters", k, f.Nonzero())
				}
			}
		}
	})
}
