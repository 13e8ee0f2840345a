package blocked

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/fprstat"
	"github.com/filterengine/filterengine/internal/testkit/kerneltest"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
)

func randomKeys(seed uint64, n int) []uint64 {
	r := rand.New(rand.NewPCG(seed, seed^0x5eed))
	ks := make([]uint64, n)
	for i := range ks {
		ks[i] = r.Uint64()
	}
	return ks
}

func keyBytes(k uint64) []byte { return binary.LittleEndian.AppendUint64(nil, k) }

func TestConstructorErrors(t *testing.T) {
	bad := []struct {
		name string
		err  func() error
	}{
		{"n=0", func() error { _, err := New(0, 0.01); return err }},
		{"p=0", func() error { _, err := New(10, 0); return err }},
		{"p<0", func() error { _, err := New(10, -0.1); return err }},
		{"p=1", func() error { _, err := New(10, 1); return err }},
		{"p=NaN", func() error { _, err := New(10, math.NaN()); return err }},
		{"p too small", func() error { _, err := New(10, 1e-300); return err }},
		{"overflow", func() error { _, err := New(math.MaxUint64, 0.01); return err }},
		{"m=0", func() error { _, err := NewMK(0, 8); return err }},
		{"k=0", func() error { _, err := NewMK(512, 0); return err }},
		{"k>cap", func() error { _, err := NewMK(512, engine.MaxK+1); return err }},
		{"m>max", func() error { _, err := NewMK(engine.MaxBits+1, 8); return err }},
		{"unknown option", func() error { _, err := New(10, 0.01, config.FamilyOption(struct{}{})); return err }},
	}
	for _, c := range bad {
		if err := c.err(); !errors.Is(err, engine.ErrParam) {
			t.Errorf("%s: error %v, want one wrapping engine.ErrParam", c.name, err)
		}
	}
}

// The space targets, by the model and for filters actually built.
func TestBitsPerKey(t *testing.T) {
	for _, c := range []struct{ p, max float64 }{{0.01, 10.2}, {0.001, 16.0}} {
		bpk, k, err := BitsPerKeyAndK(c.p)
		if err != nil {
			t.Fatal(err)
		}
		if bpk > c.max {
			t.Errorf("p=%v: %.3f bits per key, want <= %v", c.p, bpk, c.max)
		}
		if got := FPR(uint64(math.Ceil(1e6*bpk/512))*512, 1e6, k); got > c.p {
			t.Errorf("p=%v: model FPR of the sized filter %v above target", c.p, got)
		}
		f, err := New(1e6, c.p)
		if err != nil {
			t.Fatal(err)
		}
		if got := float64(f.M()) / 1e6; got > c.max {
			t.Errorf("p=%v: New(1e6) has %.3f bits per key, want <= %v", c.p, got, c.max)
		}
		t.Logf("p=%v: k=%d, %.3f bits per key", c.p, k, bpk)
	}
}

func TestNoFalseNegatives(t *testing.T) {
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		for _, k := range []uint32{1, 3, 6, 8, 9, 10, 16, 23, 64} {
			for how := range addMultiHow {
				t.Run(fmt.Sprintf("k=%d/add=%d", k, how), func(t *testing.T) {
					f, err := NewMK(64*512, k, engine.WithSeed(uint64(how)))
					if err != nil {
						t.Fatal(err)
					}
					ks := randomKeys(uint64(k)*10+uint64(how), 3000)
					addMulti(f, how, ks[:1000])
					checkMulti(t, f, ks, func(i int) bool { return i < 1000 })
				})
			}
		}
	})
}

// Every add path sets exactly the same bits.
func TestAddPathsAgree(t *testing.T) {
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		for _, k := range []uint32{2, 8, 10} {
			ks := randomKeys(uint64(k), 777)
			var ref *Filter
			for how := range addMultiHow {
				f, err := NewMK(20*512, k, engine.WithSeed(42))
				if err != nil {
					t.Fatal(err)
				}
				addMulti(f, how, ks)
				if ref == nil {
					ref = f
				} else if !f.Equal(ref) {
					t.Fatalf("k=%d: add path %d set other bits than path 0", k, how)
				}
			}
		}
	})
}

// measureFPR adds n keys to f and returns the false positives among trials
// keys never added.
func measureFPR(t *testing.T, f *Filter, n, trials int) uint64 {
	t.Helper()
	ks := randomKeys(7, n)
	f.AddUint64s(ks)
	absent := make([]uint64, trials)
	for i := range absent {
		absent[i] = uint64(i) | 1<<63 // the random keys above collide with these with chance ~1e-7
	}
	out := make([]bool, trials)
	return uint64(f.TestUint64s(absent, out))
}

// Measured false positives on 1e6 absent keys lie inside the 99.9%
// binomial bound of FPR's model for the filter built.
func TestFPRModel(t *testing.T) {
	const n, trials = 100_000, 1_000_000
	cases := []struct {
		name string
		make func() (*Filter, error)
	}{
		{"p=1%", func() (*Filter, error) { return New(n, 0.01) }},
		{"p=0.1%", func() (*Filter, error) { return New(n, 0.001) }},
		{"p=10%", func() (*Filter, error) { return New(n, 0.1) }},
		{"k=8,10bpk", func() (*Filter, error) { return NewMK(10*n, 8) }},
		{"k=10,10bpk", func() (*Filter, error) { return NewMK(10*n, 10) }},
		{"k=16,24bpk", func() (*Filter, error) { return NewMK(24*n, 16) }},
	}
	for _, c := range cases {
		f, err := c.make()
		if err != nil {
			t.Fatal(err)
		}
		fp := measureFPR(t, f, n, trials)
		model := FPR(f.M(), n, f.K())
		lo, hi := fprstat.BinomialBounds(trials, model, fprstat.Z999)
		t.Logf("%s: k=%d %.2f bits/key: measured FPR %.5f%%, model %.5f%%", c.name, f.K(), float64(f.M())/n, 100*float64(fp)/trials, 100*model)
		if float64(fp) < lo || float64(fp) > hi {
			t.Errorf("%s: %d false positives of %d, model %v gives [%.0f, %.0f]", c.name, fp, trials, model, lo, hi)
		}
	}
}

func TestUnion(t *testing.T) {
	a, _ := NewMK(100*512, 8)
	b, _ := NewMK(100*512, 8)
	ka, kb := randomKeys(1, 500), randomKeys(2, 500)
	a.AddUint64s(ka)
	b.AddUint64s(kb)
	if err := a.Union(b); err != nil {
		t.Fatal(err)
	}
	out := make([]bool, 500)
	if a.TestUint64s(ka, out) != 500 || a.TestUint64s(kb, out) != 500 {
		t.Error("union lost keys")
	}
	for _, other := range []func() (*Filter, error){
		func() (*Filter, error) { return NewMK(101*512, 8) },
		func() (*Filter, error) { return NewMK(100*512, 7) },
		func() (*Filter, error) { return NewMK(100*512, 8, engine.WithSeed(1)) },
	} {
		g, _ := other()
		if err := a.Union(g); !errors.Is(err, engine.ErrParam) {
			t.Errorf("union of incompatible filters: %v", err)
		}
	}
}

func TestEstimatedCount(t *testing.T) {
	f, _ := New(100_000, 0.01)
	if f.EstimatedCount() != 0 || f.FillRatio() != 0 {
		t.Fatal("empty filter estimates keys")
	}
	f.AddUint64s(randomKeys(3, 50_000))
	if got := f.EstimatedCount(); math.Abs(got-50_000) > 0.02*50_000 {
		t.Errorf("EstimatedCount = %.0f after 50000 keys", got)
	}
	if fill := f.FillRatio(); fill < 0.1 || fill > 0.5 {
		t.Errorf("FillRatio = %v at half load", fill)
	}
	if e := f.EstimatedFPR(); e <= 0 || e > 0.01 {
		t.Errorf("EstimatedFPR = %v at half load of a 1%% filter", e)
	}
}

func TestHugePagesAndClose(t *testing.T) {
	f, err := NewMK(1<<20, 8, engine.WithHugePages(engine.HugePagesAlways))
	if err != nil {
		t.Fatal(err)
	}
	f.AddUint64s(randomKeys(4, 1000))
	out := make([]bool, 1000)
	if f.TestUint64s(randomKeys(4, 1000), out) != 1000 {
		t.Error("false negative in huge-page filter")
	}
	t.Logf("huge pages: %v", f.HugePages())
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	g, _ := NewMK(1<<20, 8, engine.WithHugePages(engine.HugePagesNever))
	if g.HugePages() {
		t.Error("HugePagesNever gave mapped memory")
	}
}

// A zero Filter or Narrow holds no key: its estimated and model FPR are 0
// (EstimatedFPR and Narrow's ModelFPR said 1), as every read answers absent.
func TestZeroFPRIsZero(t *testing.T) {
	var f Filter
	var n Narrow
	if f.EstimatedFPR() != 0 || f.ModelFPR(10) != 0 || n.ModelFPR(10) != 0 {
		t.Errorf("zero Filter: EstimatedFPR %v, ModelFPR %v; zero Narrow: ModelFPR %v", f.EstimatedFPR(), f.ModelFPR(10), n.ModelFPR(10))
	}
}

// String names where the bits live: the heap for a small filter, the
// saved file for one Open maps in place, none for a zero or closed one.
func TestStringPlacement(t *testing.T) {
	f, err := New(1000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	if s := f.String(); !strings.HasSuffix(s, ", heap}") {
		t.Errorf("small filter: %s", s)
	}
	path := filepath.Join(t.TempDir(), "f.bf")
	if err := f.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if s := g.String(); !strings.HasSuffix(s, ", file}") {
		t.Errorf("opened filter: %s", s)
	}
	_ = g.Close()
	_ = f.Close()
	var z Filter
	for _, s := range []string{f.String(), z.String()} {
		if !strings.HasSuffix(s, ", none}") {
			t.Errorf("closed or zero filter: %s", s)
		}
	}
}
