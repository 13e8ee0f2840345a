package shifting

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/testkit/contracttest"
	"github.com/filterengine/filterengine/internal/testkit/fprstat"
	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

func TestNewErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		n    uint64
		p    float64
		opts []engine.Option
	}{
		{"n=0", 0, 0.01, nil},
		{"p=0", 100, 0, nil},
		{"p<0", 100, -0.5, nil},
		{"p=1", 100, 1, nil},
		{"p>1", 100, 2, nil},
		{"NaN", 100, math.NaN(), nil},
		{"overflow", math.MaxUint64, 1e-9, nil},
		{"unknown option", 100, 0.01, []engine.Option{config.FamilyOption(42)}},
	} {
		if _, err := New(c.n, c.p, c.opts...); !errors.Is(err, engine.ErrParam) {
			t.Errorf("%s: New(%d, %v) error %v, want ErrParam", c.name, c.n, c.p, err)
		}
	}
	for _, c := range []struct {
		name string
		m    uint64
		k    uint32
	}{
		{"m=0", 0, 10},
		{"k=0", 1000, 0},
		{"k odd", 1000, 7},
		{"k above cap", 1000, engine.MaxK + 2},
		{"m overflow", engine.MaxBits + 1, 10},
	} {
		if _, err := NewMK(c.m, c.k); !errors.Is(err, engine.ErrParam) {
			t.Errorf("%s: NewMK(%d, %d) error %v, want ErrParam", c.name, c.m, c.k, err)
		}
	}
}

func TestSize(t *testing.T) {
	for _, p := range []float64{0.1, 0.01, 0.001} {
		for _, second := range []bool{false, true} {
			m, k, err := sizeFor(1e6, p, second)
			if err != nil {
				t.Fatal(err)
			}
			model := fpr(m, 1e6, k)
			if second {
				model = fprSecondArray(m, m, 1e6, k)
			}
			if k%2 != 0 || model > p || fpr(m-m/1000, 1e6, k) <= p && !second {
				t.Errorf("p=%v second=%v: m=%d k=%d model %v", p, second, m, k, model)
			}
		}
	}
}

// TestOptions checks that the shared options are honoured.
func TestOptions(t *testing.T) {
	f, err := NewMK(1<<28, 10, engine.WithSeed(7), engine.WithHugePages(engine.HugePagesNever))
	if err != nil {
		t.Fatal(err)
	}
	if f.Seed() != 7 || f.HugePages() {
		t.Errorf("seed %d, huge pages %v", f.Seed(), f.HugePages())
	}
	f.Add([]byte("x"))
	if !f.TestHash(engine.HashSeed([]byte("x"), 7)) {
		t.Error("the seed is not the one Add used")
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	g, err := NewMK(1<<28, 10, engine.WithHugePages(engine.HugePagesAlways))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if !g.HugePages() {
		t.Log("huge-page mapping unavailable; storage fell back to the heap")
	}
}

func newFilters(t *testing.T) map[string]*Filter {
	t.Helper()
	out := map[string]*Filter{}
	for name, opts := range map[string][]engine.Option{
		"plain":  nil,
		"seeded": {engine.WithSeed(99)},
		"second": {WithSecondArray()},
	} {
		f, err := New(20000, 0.01, opts...)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = f
	}
	small, err := NewMK(1, 2) // one position: every bit pair is 0 and o
	if err != nil {
		t.Fatal(err)
	}
	out["m=1"] = small
	return out
}

// TestNoFalseNegatives checks every inserted key on every path: scalar,
// batch of hashes, keys and integers, at every kernel level.
func TestNoFalseNegatives(t *testing.T) {
	ks := members(memberBase, 20000)
	for name, f := range newFilters(t) {
		f.AddUint64s(ks[:10000])
		for _, k := range ks[10000:] {
			f.Add(keyOf(k))
		}
		kerneltest.ForEachLevel(t, func(t *testing.T) {
			out := make([]bool, len(ks))
			if hits := f.TestUint64s(ks, out); hits != len(ks) {
				t.Fatalf("%s: TestUint64s %d of %d", name, hits, len(ks))
			}
			keys := make([][]byte, len(ks))
			for i, k := range ks {
				keys[i] = keyOf(k)
				if !f.Test(keys[i]) || !f.TestConcurrent(keys[i]) {
					t.Fatalf("%s: key %d absent", name, k)
				}
			}
			if hits := f.TestKeys(keys, out); hits != len(ks) {
				t.Fatalf("%s: TestKeys %d of %d", name, hits, len(ks))
			}
		})
	}
}

// TestBatchMatchesScalar compares every batch form with the scalar test
// on a half-full filter at batch sizes around the vector widths.
func TestBatchMatchesScalar(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for name, f := range newFilters(t) {
		f.AddUint64s(members(memberBase, 15000))
		kerneltest.ForEachLevel(t, func(t *testing.T) {
			for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, 3000} {
				ks := make([]uint64, n)
				hs := make([]uint64, n)
				keys := make([][]byte, n)
				for i := range ks {
					if r.IntN(2) == 0 {
						ks[i] = memberBase + r.Uint64N(15000)
					} else {
						ks[i] = r.Uint64()
					}
					keys[i] = keyOf(ks[i])
					hs[i] = engine.HashSeed(keys[i], f.Seed())
				}
				outs := [3][]bool{make([]bool, n), make([]bool, n), make([]bool, n)}
				hits := [3]int{f.TestHashes(hs, outs[0]), f.TestKeys(keys, outs[1]), f.TestUint64s(ks, outs[2])}
				want := 0
				for i := range ks {
					w := f.Test(keys[i])
					if w {
						want++
					}
					for j := range outs {
						if outs[j][i] != w {
							t.Fatalf("%s n=%d: batch form %d out[%d] = %v, Test %v", name, n, j, i, outs[j][i], w)
						}
					}
				}
				for j, h := range hits {
					if h != want {
						t.Fatalf("%s n=%d: batch form %d counts %d hits, want %d", name, n, j, h, want)
					}
				}
			}
		})
	}
}

// fprMeasure returns the false positives among trials absent integer keys.
func fprMeasure(f *Filter, trials uint64) uint64 {
	out := make([]bool, 1<<16)
	var fp uint64
	for base := uint64(0); base < trials; base += uint64(len(out)) {
		n := min(uint64(len(out)), trials-base)
		fp += uint64(f.TestUint64s(members(absentBase+base, n), out[:n]))
	}
	return fp
}

// TestFPR measures the false-positive rate on 1e6 absent keys against the
// paper's model for the filter actually built, within a 99.9% binomial
// bound: at the New sizing, at the seed's experiment ratio of k = 10 and
// 1e8 bits scaled down to m/n = 10, and with the second array.
func TestFPR(t *testing.T) {
	const n, trials = 100000, 1000000
	cases := []struct {
		name string
		make func() (*Filter, error)
	}{
		{"New p=1%", func() (*Filter, error) { return New(n, 0.01) }},
		{"NewMK m/n=10 k=10", func() (*Filter, error) { return NewMK(10*n, 10) }},
		{"NewMK m/n=6 k=4", func() (*Filter, error) { return NewMK(6*n, 4) }},
		{"second array m/n=10 k=10", func() (*Filter, error) { return NewMK(10*n, 10, WithSecondArray()) }},
		{"same memory as the second array: m/n=20 k=14", func() (*Filter, error) { return NewMK(20*n, 14) }},
	}
	for _, c := range cases {
		f, err := c.make()
		if err != nil {
			t.Fatal(err)
		}
		f.AddUint64s(members(memberBase, n))
		fp := fprMeasure(f, trials)
		model := f.ModelFPR(n)
		lo, hi := fprstat.BinomialBounds(trials, model, fprstat.Z999)
		t.Logf("%s: m=%d k=%d measured %.5f%% model %.5f%% (classic (1-p')^k %.5f%%)",
			c.name, f.M(), f.K(), 100*float64(fp)/trials, 100*model, 100*engine.FPR(f.M(), n, f.K()))
		if float64(fp) < lo || float64(fp) > hi {
			t.Errorf("%s: %d false positives, model %.1f, 99.9%% bounds [%.1f, %.1f]", c.name, fp, model*trials, lo, hi)
		}
	}
}

// TestOptionsAllTypes checks WithSeed and WithHugePages on the association
// and multiplicity constructors.
func TestOptionsAllTypes(t *testing.T) {
	key := []byte("k")
	h := engine.HashSeed(key, 13)
	a, err := NewAssociation(100, 0.01, engine.WithSeed(13), engine.WithHugePages(engine.HugePagesAlways))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	_ = a.Add(key, InS2)
	if a.Seed() != 13 || !a.QueryHash(h).Has(OnlyS2) {
		t.Error("association: the seed is not the one Add used")
	}
	if !a.HugePages() {
		t.Log("huge-page mapping unavailable; storage fell back to the heap")
	}
	x, err := NewMultiplicity(100, 0.01, 10, engine.WithSeed(13), engine.WithHugePages(engine.HugePagesNever))
	if err != nil {
		t.Fatal(err)
	}
	_ = x.Add(key, 7)
	if x.Seed() != 13 || x.CountHash(h) < 7 || x.HugePages() {
		t.Error("multiplicity: the seed is not the one Add used, or HugePagesNever ignored")
	}
}

// Reset empties the filter in place: every key absent, the same array,
// and keys added after it are found as in a new filter of the same
// parameters (the same bits as one).
func TestReset(t *testing.T) {
	f, _ := New(1000, 0.01)
	words := f.bits()
	for i := range uint64(1000) {
		f.AddUint64(i)
	}
	f.Reset()
	if &f.bits()[0] != &words[0] {
		t.Fatal("Reset replaced the array")
	}
	for _, w := range f.bits() {
		if w != 0 {
			t.Fatal("a bit survived Reset")
		}
	}
	g, _ := NewMK(f.M(), f.K())
	for i := range uint64(500) {
		f.AddUint64(i + 7)
		g.AddUint64(i + 7)
	}
	fb, _ := f.MarshalBinary()
	gb, _ := g.MarshalBinary()
	if !bytes.Equal(fb, gb) {
		t.Fatal("a reset filter takes keys otherwise than a new one")
	}
	var z Filter
	contracttest.Panic(t, "Reset", "shifting.Filter: zero value, use shifting.New", z.Reset)
}
