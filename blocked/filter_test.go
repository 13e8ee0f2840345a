package blocked

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/fprstat"
	"github.com/filterengine/filterengine/internal/testkit/kerneltest"

	"github.com/filterengine/filterengine/asm"
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
		{"k>cap", func() error { _, err := NewMK(512, asm.BlockedMaxK+1); return err }},
		{"m>max", func() error { _, err := NewMK(engine.MaxBits+1, 8); return err }},
		{"unknown option", func() error { _, err := New(10, 0.01, config.FamilyOption(struct{}{})); return err }},
		{"words not lines", func() error { _, err := FromWords(make([]uint64, 9), 8); return err }},
		{"no words", func() error { _, err := FromWords(nil, 8); return err }},
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

// addAll adds ks through one of the add paths, chosen by how.
func addAll(f *Filter, how int, ks []uint64) {
	switch how {
	case 0:
		for _, k := range ks {
			f.Add(keyBytes(k))
		}
	case 1:
		hs := make([]uint64, len(ks))
		asm.HashUint64s(hs, ks, f.Seed())
		f.AddHashes(hs)
	case 2:
		f.AddUint64s(ks)
	case 3:
		keys := make([][]byte, len(ks))
		for i, k := range ks {
			keys[i] = keyBytes(k)
		}
		f.AddKeys(keys)
	case 4:
		for _, k := range ks {
			f.AddConcurrent(keyBytes(k))
		}
	}
}

// checkAnswers asserts that every test path answers like TestHash for
// every key and that inserted keys (the first nIn) test true.
func checkAnswers(t *testing.T, f *Filter, ks []uint64, nIn int) {
	t.Helper()
	want := make([]bool, len(ks))
	wantHits := 0
	for i, k := range ks {
		want[i] = f.TestHash(engine.HashUint64Seed(k, f.Seed()))
		if want[i] != f.Test(keyBytes(k)) || want[i] != f.TestConcurrent(keyBytes(k)) {
			t.Fatalf("key %d: TestHash, Test and TestConcurrent disagree", i)
		}
		if i < nIn && !want[i] {
			t.Fatalf("false negative: added key %d (%#x) tests absent", i, k)
		}
		if want[i] {
			wantHits++
		}
	}
	hs := make([]uint64, len(ks))
	asm.HashUint64s(hs, ks, f.Seed())
	keys := make([][]byte, len(ks))
	for i, k := range ks {
		keys[i] = keyBytes(k)
	}
	for name, test := range map[string]func(out []bool) int{
		"TestHashes":  func(out []bool) int { return f.TestHashes(hs, out) },
		"TestUint64s": func(out []bool) int { return f.TestUint64s(ks, out) },
		"TestKeys":    func(out []bool) int { return f.TestKeys(keys, out) },
	} {
		out := make([]bool, len(ks))
		if hits := test(out); hits != wantHits {
			t.Fatalf("%s: %d hits, TestHash gives %d", name, hits, wantHits)
		}
		for i := range out {
			if out[i] != want[i] {
				t.Fatalf("%s: key %d answers %v, TestHash %v", name, i, out[i], want[i])
			}
		}
	}
}

func TestNoFalseNegatives(t *testing.T) {
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		for _, k := range []uint32{1, 3, 6, 8, 9, 10, 16, 23, 64} {
			for how := range 5 {
				t.Run(fmt.Sprintf("k=%d/add=%d", k, how), func(t *testing.T) {
					f, err := NewMK(64*512, k, engine.WithSeed(uint64(how)))
					if err != nil {
						t.Fatal(err)
					}
					ks := randomKeys(uint64(k)*10+uint64(how), 3000)
					addAll(f, how, ks[:1000])
					checkAnswers(t, f, ks, 1000)
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
			for how := range 5 {
				f, err := NewMK(20*512, k, engine.WithSeed(42))
				if err != nil {
					t.Fatal(err)
				}
				addAll(f, how, ks)
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

// hotPaths is the contract's per-key and batch surface that every
// blocked type offers.
type hotPaths interface {
	AddHash(h uint64)
	TestHash(h uint64) bool
	Test(key []byte) bool
	TestString(s string) bool
	TestUint64(k uint64) bool
	AddHashes(hs []uint64)
	TestHashes(hs []uint64, out []bool) int
	AddUint64s(ks []uint64)
	TestUint64s(ks []uint64, out []bool) int
	AddKeys(keys [][]byte)
	TestKeys(keys [][]byte, out []bool) int
}

// checkNoAllocs asserts, at every kernel level, that no Test or Add path
// of f allocates: single keys and batches of 1000 (adds of 10 keys, so a
// growing filter does not grow while it is measured). f should be filled
// as the caller wants it measured.
func checkNoAllocs(t *testing.T, f hotPaths) {
	ks := randomKeys(5, 1000)
	hs := make([]uint64, len(ks))
	asm.HashUint64s(hs, ks, 0)
	keys := make([][]byte, len(ks))
	for i, k := range ks {
		keys[i] = keyBytes(k)
	}
	str := string(keys[0])
	out := make([]bool, len(ks))
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		for name, fn := range map[string]func(){
			"TestHash":    func() { f.TestHash(hs[0]) },
			"Test":        func() { f.Test(keys[0]) },
			"TestString":  func() { f.TestString(str) },
			"TestUint64":  func() { f.TestUint64(ks[0]) },
			"TestHashes":  func() { f.TestHashes(hs, out) },
			"TestUint64s": func() { f.TestUint64s(ks, out) },
			"TestKeys":    func() { f.TestKeys(keys, out) },
			"AddHash":     func() { f.AddHash(hs[0]) },
			"AddHashes":   func() { f.AddHashes(hs[:10]) },
			"AddUint64s":  func() { f.AddUint64s(ks[:10]) },
			"AddKeys":     func() { f.AddKeys(keys[:10]) },
		} {
			if a := testing.AllocsPerRun(20, fn); a != 0 {
				t.Errorf("%s allocates %v times per call", name, a)
			}
		}
	})
}

func TestAllocs(t *testing.T) {
	f, _ := New(10_000, 0.01)
	t.Run("Filter", func(t *testing.T) { checkNoAllocs(t, f) })
	s, _ := NewScalable(1000, 0.01)
	s.AddUint64s(randomKeys(1, 20_000))
	t.Run("Scalable", func(t *testing.T) { checkNoAllocs(t, s) })
	w, _ := NewWindow(10_000, 0.01, 4)
	w.AddUint64s(randomKeys(1, 30_000))
	t.Run("Window", func(t *testing.T) { checkNoAllocs(t, w) })
	for _, bb := range []int{64, 128} {
		n, _ := NewNarrow(10_000, 0.01, bb)
		t.Run(fmt.Sprintf("Narrow%d", bb), func(t *testing.T) { checkNoAllocs(t, n) })
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
