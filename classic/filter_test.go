package classic

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/testkit/fprstat"
	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

// keyBytes is the 8 little-endian bytes of k, the byte form of a uint64 key.
func keyBytes(k uint64) []byte { return binary.LittleEndian.AppendUint64(nil, k) }

// members returns n distinct keys; nonMembers returns n keys none of which
// is a member (disjoint by the top bit).
func members(n int) []uint64 {
	ks := make([]uint64, n)
	for i := range ks {
		ks[i] = uint64(i) * 0x9e3779b97f4a7c15 >> 1
	}
	return ks
}

func nonMembers(n int) []uint64 {
	ks := members(n)
	for i := range ks {
		ks[i] |= 1 << 63
	}
	return ks
}

func TestNoFalseNegatives(t *testing.T) {
	const n = 1_000_000
	ks := members(n)
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		f, err := New(n, 0.01)
		if err != nil {
			t.Fatal(err)
		}
		f.AddUint64s(ks)
		out := make([]bool, n)
		if hits := f.TestUint64s(ks, out); hits != n {
			t.Fatalf("TestUint64s found %d of %d members", hits, n)
		}
		hs := make([]uint64, n)
		asm.HashUint64s(hs, ks, 0)
		if hits := f.TestHashes(hs, out); hits != n {
			t.Fatalf("TestHashes found %d of %d members", hits, n)
		}
		for _, k := range ks[:10000] {
			if !f.Test(keyBytes(k)) {
				t.Fatalf("Test(%d) = false for a member", k)
			}
		}
	})
}

// Every way of adding a key is found by every way of testing it.
func TestAddPathsAgree(t *testing.T) {
	const n = 5000
	ks := members(n)
	keys := make([][]byte, n)
	hs := make([]uint64, n)
	for i, k := range ks {
		keys[i] = keyBytes(k)
		hs[i] = engine.HashSeed(keys[i], 7)
	}
	adders := map[string]func(f *Filter){
		"Add":                 func(f *Filter) { forEach(keys, f.Add) },
		"AddHash":             func(f *Filter) { forEach(hs, f.AddHash) },
		"AddHashes":           func(f *Filter) { f.AddHashes(hs) },
		"AddKeys":             func(f *Filter) { f.AddKeys(keys) },
		"AddUint64s":          func(f *Filter) { f.AddUint64s(ks) },
		"AddConcurrent":       func(f *Filter) { forEach(keys, f.AddConcurrent) },
		"AddHashesConcurrent": func(f *Filter) { f.AddHashesConcurrent(hs) },
		"TestAndAdd":          func(f *Filter) { forEach(keys, func(k []byte) { f.TestAndAdd(k) }) },
	}
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		var ref *Filter
		for name, add := range adders {
			f, err := NewMK(40_000, 5, engine.WithSeed(7))
			if err != nil {
				t.Fatal(err)
			}
			add(f)
			if ref == nil {
				ref = f
			} else if !f.Equal(ref) {
				t.Fatalf("%s built different bits from another add path", name)
			}
		}
		out := make([]bool, n)
		if got := ref.TestKeys(keys, out); got != n {
			t.Fatalf("TestKeys found %d of %d", got, n)
		}
		if got := ref.TestUint64s(ks, out); got != n {
			t.Fatalf("TestUint64s found %d of %d", got, n)
		}
	})
}

func forEach[T any](xs []T, f func(T)) {
	for _, x := range xs {
		f(x)
	}
}

// Batch answers equal single-key answers, on sizes around every chunk
// boundary and on a half-full filter where answers are mixed.
func TestBatchMatchesSingle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range []uint32{1, 3, 7, 13, 64} {
		f, err := NewMK(20_000, k)
		if err != nil {
			t.Fatal(err)
		}
		for range 3000 / k {
			f.AddHash(rng.Uint64())
		}
		kerneltest.ForEachLevel(t, func(t *testing.T) {
			for _, size := range []int{0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 255, 256, 257, 1000} {
				ks := make([]uint64, size)
				for i := range ks {
					ks[i] = rng.Uint64() % 4096
				}
				hs := make([]uint64, size)
				asm.HashUint64s(hs, ks, 0)
				out := make([]bool, size+1)
				out[size] = true // a sentinel batch calls must not touch
				want := 0
				for i := range hs {
					if f.TestHash(hs[i]) {
						want++
					}
				}
				if got := f.TestHashes(hs, out); got != want {
					t.Fatalf("k=%d size %d: TestHashes hits %d, single %d", k, size, got, want)
				}
				for i, h := range hs {
					if out[i] != f.TestHash(h) {
						t.Fatalf("k=%d size %d: out[%d] differs from TestHash", k, size, i)
					}
				}
				if got := f.TestUint64s(ks, out); got != want || !out[size] {
					t.Fatalf("k=%d size %d: TestUint64s hits %d, want %d (sentinel %v)", k, size, got, want, out[size])
				}
			}
		})
	}
}

func TestFPR(t *testing.T) {
	const n, trials = 1_000_000, 1_000_000
	ks, absent := members(n), nonMembers(trials)
	out := make([]bool, trials)
	for _, p := range []float64{0.1, 0.01, 0.001} {
		f, err := New(n, p)
		if err != nil {
			t.Fatal(err)
		}
		f.AddUint64s(ks)
		fp := f.TestUint64s(absent, out)
		model := f.ModelFPR(n)
		lo, hi := fprstat.BinomialBounds(trials, model, fprstat.Z999)
		t.Logf("p=%v m=%d k=%d bits/key=%.2f: measured %.5f, model %.5f", p, f.M(), f.K(), float64(f.M())/n, float64(fp)/trials, model)
		if float64(fp) < lo || float64(fp) > hi {
			t.Errorf("p=%v: %d false positives outside [%.0f, %.0f] around the model %.5f", p, fp, lo, hi, model)
		}
		if math.Abs(model-p)/p > 0.05 {
			t.Errorf("p=%v: New built a filter whose model FPR is %.5f", p, model)
		}
	}
}

func TestEstimates(t *testing.T) {
	const n = 200_000
	f, err := New(n, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	f.AddUint64s(members(n))
	if est := f.EstimatedCount(); math.Abs(est-n)/n > 0.01 {
		t.Errorf("EstimatedCount = %.0f for %d keys", est, n)
	}
	// The expected fill is 1 - (1-1/m)^(kn); its standard deviation is
	// below sqrt(m)/m, so 6 of those is a generous bound.
	wantFill := -math.Expm1(float64(f.K()) * n * math.Log1p(-1/float64(f.M())))
	if d := math.Abs(f.FillRatio() - wantFill); d > 6/math.Sqrt(float64(f.M())) {
		t.Errorf("FillRatio %.5f, model %.5f", f.FillRatio(), wantFill)
	}
	if r := f.EstimatedFPR() / f.ModelFPR(n); r < 0.95 || r > 1.05 {
		t.Errorf("EstimatedFPR %.5f vs model %.5f", f.EstimatedFPR(), f.ModelFPR(n))
	}
}

func TestSetOperations(t *testing.T) {
	a, _ := NewMK(10_000, 4)
	b, _ := NewMK(10_000, 4)
	a.AddUint64s([]uint64{1, 2, 3})
	b.AddUint64s([]uint64{3, 4, 5})
	u := a.Clone()
	if err := u.Union(b); err != nil {
		t.Fatal(err)
	}
	in := a.Clone()
	if err := in.Intersect(b); err != nil {
		t.Fatal(err)
	}
	out := make([]bool, 5)
	if got := u.TestUint64s([]uint64{1, 2, 3, 4, 5}, out); got != 5 {
		t.Errorf("union found %d of 5", got)
	}
	if in.TestUint64s([]uint64{3}, out) != 1 {
		t.Error("intersection lost the common key")
	}
	if !u.Equal(u.Clone()) || u.Equal(a) {
		t.Error("Equal disagrees with the bits")
	}
	c := a.Clone()
	c.AddUint64s([]uint64{99})
	if c.Equal(a) {
		t.Error("Clone shares bits with the original")
	}
	c.Reset()
	if c.PopCount() != 0 {
		t.Error("Reset left bits set")
	}
	other, _ := NewMK(10_000, 4, engine.WithSeed(1))
	if a.Union(other) == nil || a.Intersect(other) == nil || a.Equal(other) {
		t.Error("filters with different seeds combined")
	}
	small, _ := NewMK(9_999, 4)
	if a.Union(small) == nil {
		t.Error("filters with different m combined")
	}
}

func TestTestAndAdd(t *testing.T) {
	f, _ := NewMK(1<<16, 6)
	if f.TestAndAdd([]byte("x")) {
		t.Error("TestAndAdd on an empty filter reported present")
	}
	if !f.TestAndAdd([]byte("x")) || !f.Test([]byte("x")) {
		t.Error("TestAndAdd did not add")
	}
}

func TestConstructorErrors(t *testing.T) {
	cases := []struct {
		name string
		err  error
	}{}
	add := func(name string, _ *Filter, err error) {
		cases = append(cases, struct {
			name string
			err  error
		}{name, err})
	}
	f, err := New(0, 0.01)
	add("n=0", f, err)
	f, err = New(100, 0)
	add("p=0", f, err)
	f, err = New(100, -0.5)
	add("p<0", f, err)
	f, err = New(100, 1)
	add("p=1", f, err)
	f, err = New(100, math.NaN())
	add("p=NaN", f, err)
	f, err = New(math.MaxUint64, 0.01)
	add("n overflows", f, err)
	f, err = NewMK(0, 3)
	add("m=0", f, err)
	f, err = NewMK(100, 0)
	add("k=0", f, err)
	f, err = NewMK(100, engine.MaxK+1)
	add("k above cap", f, err)
	f, err = NewMK(math.MaxUint64, 3)
	add("m overflows", f, err)
	f, err = NewMK(100, 3, config.FamilyOption(struct{}{}))
	add("foreign option", f, err)
	for _, c := range cases {
		if !errors.Is(c.err, engine.ErrParam) && !errors.Is(c.err, engine.ErrFormat) {
			t.Errorf("%s: err = %v, want a parameter error", c.name, c.err)
		}
	}
}

// A filter of just over 2^33 bits places probes above 2^32 and finds them:
// index math is 64-bit all the way.
func TestAbove32Bits(t *testing.T) {
	if testing.Short() {
		t.Skip("reserves 1 GiB of address space")
	}
	const m = 1<<33 + 192
	// Small pages: the test touches ~2000 random pages, not all 512 huge
	// ones, so it costs megabytes of zeroing rather than a gigabyte.
	f, err := NewMK(m, 4, engine.WithHugePages(engine.HugePagesNever))
	if err != nil {
		t.Fatal(err)
	}
	high := 0
	words := f.st.Words()
	for k := uint64(0); k < 2000; k++ {
		f.AddUint64s([]uint64{k})
		if !f.Test(keyBytes(k)) {
			t.Fatalf("key %d lost in a 2^33-bit filter", k)
		}
		p := newProbe(engine.HashUint64(k), m)
		for range 4 {
			if i := p.next(); i >= 1<<32 {
				high++
				if words[i/64]&(1<<(i%64)) == 0 {
					t.Fatalf("key %d: bit %d above 2^32 not set", k, i)
				}
			}
		}
	}
	if high < 3000 {
		t.Fatalf("only %d of 8000 probes above 2^32: the range reduction is not using the whole array", high)
	}
}

// TestAddConcurrent adds disjoint keys from eight goroutines, half one at
// a time and half in AddHashesConcurrent batches of every tail length,
// each testing its keys with TestConcurrent right after; then no key is
// lost. At every kernel level, under -race in make test.
func TestAddConcurrent(t *testing.T) {
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		const goroutines, per = 8, 5_000
		f, err := New(goroutines*per, 0.01)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				if g%2 == 1 {
					hs := make([]uint64, per)
					for i := range hs {
						hs[i] = engine.Hash(keyBytes(uint64(g*per + i)))
					}
					for _, b := range kerneltest.Batches(hs) {
						f.AddHashesConcurrent(b)
					}
					for i := range per {
						if !f.TestConcurrent(keyBytes(uint64(g*per + i))) {
							t.Errorf("goroutine %d: key %d missing after its batch add", g, i)
							return
						}
					}
					return
				}
				for i := range per {
					key := keyBytes(uint64(g*per + i))
					f.AddConcurrent(key)
					if !f.TestConcurrent(key) {
						t.Errorf("goroutine %d: key %d missing right after its add", g, i)
						return
					}
				}
			})
		}
		wg.Wait()
		for i := range goroutines * per {
			if !f.Test(keyBytes(uint64(i))) {
				t.Fatalf("key %d lost by concurrent adds", i)
			}
		}
	})
}

func TestBatchAllocs(t *testing.T) {
	f, _ := New(10_000, 0.01)
	ks := members(1000)
	hs := make([]uint64, 1000)
	keys := make([][]byte, 1000)
	for i, k := range ks {
		keys[i] = keyBytes(k)
	}
	out := make([]bool, 1000)
	for name, fn := range map[string]func(){
		"AddHashes":   func() { f.AddHashes(hs) },
		"TestHashes":  func() { f.TestHashes(hs, out) },
		"AddKeys":     func() { f.AddKeys(keys) },
		"TestKeys":    func() { f.TestKeys(keys, out) },
		"AddUint64s":  func() { f.AddUint64s(ks) },
		"TestUint64s": func() { f.TestUint64s(ks, out) },

		"AddHashesConcurrent":  func() { f.AddHashesConcurrent(hs) },
		"AddUint64sConcurrent": func() { f.AddUint64sConcurrent(ks) },
		"AddUint64":            func() { f.AddUint64(ks[0]) },
		"TestString":           func() { f.TestString("key") },
		"TestHashConcurrent":   func() { f.TestHashConcurrent(hs[0]) },
	} {
		if a := testing.AllocsPerRun(20, fn); a != 0 {
			t.Errorf("%s allocates %.1f times per call", name, a)
		}
	}
}

// Combining with a nil *Filter is an error, not a nil dereference.
func TestSetOpsNil(t *testing.T) {
	f, _ := NewMK(1000, 7)
	if err := f.Union(nil); !errors.Is(err, engine.ErrParam) {
		t.Errorf("Union(nil): %v", err)
	}
	if err := f.Intersect(nil); !errors.Is(err, engine.ErrParam) {
		t.Errorf("Intersect(nil): %v", err)
	}
}
