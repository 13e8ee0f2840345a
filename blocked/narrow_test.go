package blocked

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/store"
	"github.com/filterengine/filterengine/internal/testkit/fprstat"
	"github.com/filterengine/filterengine/internal/testkit/fuzzenv"
	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

var updateNarrow = flag.Bool("update-narrow", false, "rewrite testdata/narrow*.golden")

func narrowHashes(n int, seed uint64) []uint64 {
	r := rand.New(rand.NewPCG(seed, 77))
	hs := make([]uint64, n)
	for i := range hs {
		hs[i] = r.Uint64()
	}
	return hs
}

// A key sets exactly the bits of asm.NarrowPositions in its block, for
// every k across the multiplier rounds, for both block sizes.
func TestNarrowBitsAreNarrowPositions(t *testing.T) {
	for _, bb := range []int{64, 128} {
		for k := uint32(1); k <= 31; k++ {
			f, err := NewNarrowMK(uint64(5*bb), k, bb)
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range narrowHashes(50, uint64(k)) {
				clear(f.words)
				if f.TestAndAddHash(h) {
					t.Fatalf("%d-bit k=%d: TestAndAdd on an empty filter reported present", bb, k)
				}
				want := make([]uint64, len(f.words))
				block := asm.NarrowBlock(h, f.blocks)
				pos := asm.NarrowPositions(h, k, f.logBits)
				for _, q := range pos[:k] {
					want[block*uint64(bb/64)+uint64(q>>6)] |= 1 << (q & 63)
				}
				if !slices.Equal(f.words, want) {
					t.Fatalf("%d-bit k=%d h=%#x: bits %x, want %x", bb, k, h, f.words, want)
				}
				if !f.TestHash(h) {
					t.Fatalf("%d-bit k=%d: added key absent", bb, k)
				}
			}
		}
	}
}

// The pinned sizing of the doc comments.
func TestNarrowSizing(t *testing.T) {
	for _, c := range []struct {
		p    float64
		bb   int
		bpk  float64
		k    uint32
		name string
	}{{0.01, 128, 10.85, 6, "128/1%"}, {0.001, 128, 19.01, 8, "128/0.1%"}, {0.01, 64, 12.14, 5, "64/1%"}, {0.001, 64, 24.00, 7, "64/0.1%"}} {
		bpk, k, err := NarrowBitsPerKeyAndK(c.p, c.bb)
		if err != nil || k != c.k || math.Abs(bpk-c.bpk) > 0.006 {
			t.Errorf("%s: %.3f bits per key, k = %d, err %v; want %.2f and %d", c.name, bpk, k, err, c.bpk, c.k)
		}
		if m := NarrowFPR(uint64(math.Ceil(bpk*1e6)), 1e6, k, c.bb); m > c.p*1.001 {
			t.Errorf("%s: the sized filter's model FPR %v is above p", c.name, m)
		}
	}
	for _, bad := range []int{0, 32, 96, 256, 512} {
		if _, _, err := NarrowBitsPerKeyAndK(0.01, bad); !errors.Is(err, engine.ErrParam) {
			t.Errorf("%d-bit blocks: %v", bad, err)
		}
		if _, err := NewNarrow(100, 0.01, bad); !errors.Is(err, engine.ErrParam) {
			t.Errorf("NewNarrow with %d-bit blocks: %v", bad, err)
		}
	}
	for _, bad := range []func() (*Narrow, error){
		func() (*Narrow, error) { return NewNarrow(0, 0.01, 128) },
		func() (*Narrow, error) { return NewNarrow(10, 1, 128) },
		func() (*Narrow, error) { return NewNarrowMK(0, 3, 128) },
		func() (*Narrow, error) { return NewNarrowMK(128, 0, 64) },
		func() (*Narrow, error) { return NewNarrowMK(128, engine.MaxK+1, 64) },
		func() (*Narrow, error) { return NarrowFromWords(make([]uint64, 3), 128, 3) },
		func() (*Narrow, error) { return NarrowFromWords(nil, 64, 3) },
		func() (*Narrow, error) { return NewNarrow(1<<62, 1e-9, 64) },
	} {
		if f, err := bad(); f != nil || !errors.Is(err, engine.ErrParam) {
			t.Errorf("bad parameters: filter %v, error %v", f != nil, err)
		}
	}
}

// An overloaded filter's model is 1 and quick to compute; an empty
// one's is 0.
func TestNarrowFPRExtremes(t *testing.T) {
	if r := NarrowFPR(128, 1e12, 6, 128); r < 0.999999 {
		t.Errorf("1e12 keys in one block: FPR %v", r)
	}
	if r := NarrowFPR(1<<20, 1e9, 3, 64); r < 0.999 || r > 1 {
		t.Errorf("1e9 keys in 2^14 blocks: FPR %v", r)
	}
	if r := NarrowFPR(1<<20, 0, 6, 128); r != 0 {
		t.Errorf("empty filter: FPR %v", r)
	}
	if r := NarrowFPR(64, 10, 6, 128); r != 1 {
		t.Errorf("fewer bits than a block: FPR %v", r)
	}
}

// Measured false-positive rates on 1e6 absent keys lie within the 99.9%
// binomial bounds of NarrowFPR for the filter built.
func TestNarrowFPRModel(t *testing.T) {
	for _, c := range []struct {
		bb  int
		p   float64
		k   uint32
		bpk float64
	}{{128, 0.01, 0, 0}, {128, 0.001, 0, 0}, {64, 0.01, 0, 0}, {128, 0, 8, 12}, {64, 0, 4, 10}} {
		const n, trials = 100000, 1000000
		var f *Narrow
		var err error
		if c.p > 0 {
			f, err = NewNarrow(n, c.p, c.bb)
		} else {
			f, err = NewNarrowMK(uint64(c.bpk*n), c.k, c.bb)
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := range uint64(n) {
			f.AddUint64(i)
		}
		fp := 0
		for i := range uint64(trials) {
			if f.TestUint64(1<<40 + i) {
				fp++
			}
		}
		model := f.ModelFPR(n)
		lo, hi := fprstat.BinomialBounds(trials, model, fprstat.Z999)
		t.Logf("%d-bit blocks, k %d, %.2f bits per key: %.5f%% measured, model %.5f%%", c.bb, f.K(), float64(f.M())/n, 100*float64(fp)/trials, 100*model)
		if float64(fp) < lo || float64(fp) > hi {
			t.Errorf("%+v: %d false positives in %d, model %.6f allows [%.0f, %.0f]", c, fp, trials, model, lo, hi)
		}
		if c.p > 0 && model > c.p {
			t.Errorf("%+v: model %.5f above the target", c, model)
		}
	}
}

// Every form answers as Test of the same bytes, members are never
// absent, and a round trip keeps every answer, at every kernel level.
func TestNarrowForms(t *testing.T) {
	for _, bb := range []int{64, 128} {
		f, err := NewNarrow(5000, 0.01, bb, engine.WithSeed(9))
		if err != nil {
			t.Fatal(err)
		}
		ks := make([]uint64, 3000)
		keys := make([][]byte, len(ks))
		for i := range ks {
			ks[i] = uint64(i) * 0x9e3779b97f4a7c15
			keys[i] = store.WordsBytes([]uint64{ks[i]})
		}
		f.AddUint64s(ks[:1000])
		f.AddKeys(keys[1000:2000])
		for _, k := range ks[2000:] {
			f.AddString(string(store.WordsBytes([]uint64{k})))
		}
		data, err := f.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		g, err := DecodeNarrow(data)
		if err != nil {
			t.Fatal(err)
		}
		probe := append(slices.Clone(ks), narrowHashes(3000, 5)...)
		kerneltest.ForEachLevel(t, func(t *testing.T) {
			for _, x := range []*Narrow{f, g} {
				out := make([]bool, len(probe))
				x.TestUint64s(probe, out)
				for i, k := range probe {
					b := store.WordsBytes([]uint64{k})
					want := x.Test(b)
					if out[i] != want || x.TestUint64(k) != want || x.TestString(string(b)) != want || x.TestHash(engine.HashSeed(b, 9)) != want {
						t.Fatalf("%d-bit: key %d: forms disagree", bb, i)
					}
					if i < len(ks) && !want {
						t.Fatalf("%d-bit: member %d absent", bb, i)
					}
				}
				for _, n := range kerneltest.BatchLengths {
					lo := len(ks) - n/2 // members, then absent keys
					part, hs, bs := probe[lo:lo+n], make([]uint64, n), make([][]byte, n)
					for i, k := range part {
						bs[i] = store.WordsBytes([]uint64{k})
						hs[i] = engine.HashSeed(bs[i], 9)
					}
					want := out[lo : lo+n]
					for name, got := range map[string]func([]bool) int{
						"TestUint64s": func(o []bool) int { return x.TestUint64s(part, o) },
						"TestKeys":    func(o []bool) int { return x.TestKeys(bs, o) },
						"TestHashes":  func(o []bool) int { return x.TestHashes(hs, o) },
					} {
						o := make([]bool, n)
						if hits := got(o); !slices.Equal(o, want) || hits != countTrue(want) {
							t.Fatalf("%d-bit: %s of %d keys disagrees with the single-key forms", bb, name, n)
						}
					}
				}
			}
		})
		if !slices.Equal(f.words, g.words) || g.K() != f.K() || g.Seed() != 9 || g.BlockBits() != bb {
			t.Fatal("round trip changed the filter")
		}
		if c := f.Clone(); !slices.Equal(c.words, f.words) {
			t.Fatal("Clone differs")
		}
		if est := f.EstimatedCount(); est < 2700 || est > 3300 {
			t.Errorf("EstimatedCount %.0f for 3000 keys", est)
		}
		if s := f.String(); len(s) > 200 {
			t.Errorf("String is %d bytes", len(s))
		}
		var buf bytes.Buffer
		if _, err := f.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		var r Narrow
		if _, err := r.ReadFrom(&buf); err != nil || !slices.Equal(r.words, f.words) {
			t.Fatalf("WriteTo/ReadFrom: %v", err)
		}
		if _, err := Decode(data); err == nil {
			t.Error("blocked.Decode accepted a narrow filter")
		}
	}
}

func TestNarrowGolden(t *testing.T) {
	for _, bb := range []int{64, 128} {
		name := filepath.Join("testdata", fmt.Sprintf("narrow%d.golden", bb))
		f, _ := NewNarrow(1000, 0.01, bb, engine.WithSeed(7))
		for i := range uint64(500) {
			f.AddUint64(i)
		}
		data, _ := f.MarshalBinary()
		if *updateNarrow {
			_ = os.WriteFile(name, data, 0o644)
		}
		want, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, want) {
			t.Errorf("%s: encoding changed without a version bump", name)
		}
		g, err := DecodeNarrow(want)
		if err != nil {
			t.Fatal(err)
		}
		for i := range uint64(500) {
			if !g.TestUint64(i) {
				t.Fatalf("%s lost key %d", name, i)
			}
		}
	}
}

func TestNarrowDecodeHostile(t *testing.T) {
	f, _ := NewNarrowMK(256, 3, 128)
	f.AddHash(1)
	data, _ := f.MarshalBinary()
	for i := range data {
		bad := slices.Clone(data)
		bad[i] ^= 0x20
		if _, err := DecodeNarrow(bad); !errors.Is(err, engine.ErrFormat) {
			t.Fatalf("byte %d corrupted: %v", i, err)
		}
	}
	for _, p := range [][]uint64{{256, 3, 96}, {256, 3, 512}, {0, 3, 128}, {200, 3, 128}, {256, 0, 128}, {256, 65, 128}, {1 << 60, 3, 64}, {256, 3, 1 << 62}, {512, 3, 128}, {256, 3}} {
		h := store.Header{Family: store.FamilyBlocked, Version: narrowFormatVersion, Params: p}
		data, _ := store.AppendEnvelope(nil, h, make([]byte, 32))
		if _, err := DecodeNarrow(data); !errors.Is(err, engine.ErrFormat) {
			t.Errorf("params %v: %v", p, err)
		}
	}
}

func FuzzDecodeNarrow(f *testing.F) {
	var seeds [][]byte
	for _, bb := range []int{64, 128} {
		g, _ := NewNarrowMK(512, 4, bb)
		g.AddHash(3)
		data, _ := g.MarshalBinary()
		seeds = append(seeds, data)
	}
	// A mutated envelope fails its checksums; the sealed form of each
	// input reaches the decoder.
	env := fuzzenv.AddSeeds(f, seeds...)
	f.Add([]byte{})
	check := func(t *testing.T, data []byte) {
		g, err := DecodeNarrow(data)
		if err != nil {
			return
		}
		if g.SizeBytes() > uint64(len(data)) {
			t.Fatalf("decoded %d bytes from %d", g.SizeBytes(), len(data))
		}
		again, err := g.MarshalBinary()
		if err != nil || !bytes.Equal(again, data) {
			t.Fatal("decoded filter does not re-encode to its input")
		}
		g.AddHash(5)
		if !g.TestHash(5) {
			t.Fatal("added key absent")
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check(t, data)
		if sealed := env.Seal(data); sealed != nil {
			check(t, sealed)
		}
	})
}

func ExampleNewNarrow() {
	f, err := NewNarrow(1000, 0.01, 128)
	if err != nil {
		panic(err)
	}
	f.AddString("alpha")
	fmt.Println(f.TestString("alpha"), f.K(), f.BlockBits())
	// Output: true 6 128
}

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		n += int(b2u(b))
	}
	return n
}

// TestNarrowZeroValue: a Narrow without blocks (the zero value, or after
// Close) answers absent and refuses writes with a readable panic, never a
// raw index panic.
func TestNarrowZeroValue(t *testing.T) {
	closed, _ := NewNarrow(100, 0.01, 128)
	closed.Close()
	for name, f := range map[string]*Narrow{"zero": {}, "closed": closed} {
		out := []bool{true, true}
		if f.TestHash(1) || f.Test([]byte("a")) || f.TestUint64s([]uint64{1, 2}, out) != 0 || out[0] || out[1] {
			t.Errorf("%s Narrow answers yes", name)
		}
		const msg = "blocked.Narrow: zero value, use blocked.NewNarrow"
		wantPanic(t, name+" AddHash", msg, func() { f.AddHash(1) })
		wantPanic(t, name+" TestAndAdd", msg, func() { f.TestAndAdd([]byte("a")) })
		wantPanic(t, name+" AddUint64s", msg, func() { f.AddUint64s([]uint64{1}) })
	}
}
