package classic

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
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

// The parameter errors the conformance suite's Params does not try: a k
// just above engine.MaxK and an option of another family.
func TestConstructorErrors(t *testing.T) {
	for name, fn := range map[string]func() (*Filter, error){
		"k above cap":    func() (*Filter, error) { return NewMK(100, engine.MaxK+1) },
		"foreign option": func() (*Filter, error) { return NewMK(100, 3, config.FamilyOption(struct{}{})) },
	} {
		if _, err := fn(); !errors.Is(err, engine.ErrParam) {
			t.Errorf("%s: err = %v, want one wrapping engine.ErrParam", name, err)
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
