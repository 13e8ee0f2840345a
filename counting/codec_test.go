package counting

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/engine"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldenKeys are the keys of the golden filters: 0..499 added once,
// 0..9 added 20 times more (saturating their 4-bit counters), 500..599
// added and removed again.
func goldenFilter(t testing.TB, bits int) *Filter {
	f, err := New(1000, 0.01, WithCounterBits(bits), engine.WithSeed(7))
	if err != nil {
		t.Fatal(err)
	}
	for i := range uint64(600) {
		f.AddUint64s([]uint64{i})
	}
	for range 20 {
		for i := range uint64(10) {
			f.AddUint64s([]uint64{i})
		}
	}
	for i := uint64(500); i < 600; i++ {
		f.RemoveUint64s([]uint64{i}, make([]bool, 1))
	}
	return f
}

func TestGolden(t *testing.T) {
	for _, bits := range []int{4, 8} {
		name := filepath.Join("testdata", map[int]string{4: "counting4.golden", 8: "counting8.golden"}[bits])
		f := goldenFilter(t, bits)
		data, err := f.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if *update {
			_ = os.WriteFile(name, data, 0o644)
		}
		want, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, want) {
			t.Errorf("%d-bit: encoding differs from %s (format change without a version bump?)", bits, name)
		}
		g, err := Decode(want)
		if err != nil {
			t.Fatal(err)
		}
		gb, err := g.ToBloom()
		if err != nil {
			t.Fatal(err)
		}
		if g.K() != f.K() || g.Lines() != f.Lines() || g.Seed() != 7 || g.CounterBits() != bits {
			t.Errorf("decoded geometry k %d lines %d seed %d bits %d", g.K(), g.Lines(), g.Seed(), g.CounterBits())
		}
		ks := make([]uint64, 2000)
		for i := range ks {
			ks[i] = uint64(i)
		}
		out := make([]bool, len(ks))
		outTwin := make([]bool, len(ks))
		g.TestUint64s(ks, out)
		gb.TestUint64s(ks, outTwin)
		if !slices.Equal(out, outTwin) {
			t.Error("golden twin disagrees with golden filter")
		}
		for i := range 500 {
			if !out[i] {
				t.Fatalf("golden filter lost key %d", i)
			}
		}
		fp := 0
		for _, o := range out[600:] {
			if o {
				fp++
			}
		}
		if fp > 100 {
			t.Errorf("golden filter: %d of 1400 absent keys present", fp)
		}
		var one [8]byte
		if c := g.Count(one[:]); bits == 4 && c != 15 || bits == 8 && c != 21 {
			t.Errorf("%d-bit golden: Count(key 0) = %d", bits, c)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	widths(t, func(t *testing.T, bits int) {
		f := mustNew(t, 5000, 0.01, WithCounterBits(bits), engine.WithSeed(3))
		hs := randomHashes(5000, 12)
		f.AddHashes(hs)
		data, err := f.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if n, err := f.WriteTo(&buf); err != nil || n != int64(len(data)) || !bytes.Equal(buf.Bytes(), data) {
			t.Fatalf("WriteTo wrote %d bytes, err %v; differs from MarshalBinary", n, err)
		}
		buf.WriteString("trailing")
		var g Filter
		if n, err := g.ReadFrom(&buf); err != nil || n != int64(len(data)) {
			t.Fatalf("ReadFrom read %d, err %v", n, err)
		}
		if !slices.Equal(g.words, f.words) || g.k != f.k || g.seed != 3 || g.wide != f.wide {
			t.Fatal("round trip changed the filter")
		}
		out := make([]bool, len(hs))
		if n := g.TestHashes(hs, out); n != len(hs) {
			t.Errorf("%d of %d keys present after the round trip", n, len(hs))
		}
		if _, err := blocked.Decode(data); err == nil {
			t.Error("a counting filter decoded as a blocked filter")
		}
	})
}

// Any single corrupted byte is an error.
func TestCorruptEveryByte(t *testing.T) {
	f, _ := NewMK(512, 3)
	f.AddHashes(randomHashes(20, 13))
	data, _ := f.MarshalBinary()
	for i := range data {
		bad := slices.Clone(data)
		bad[i] ^= 0x40
		if _, err := Decode(bad); !errors.Is(err, engine.ErrFormat) {
			t.Fatalf("byte %d corrupted: error %v", i, err)
		}
	}
	for n := range data {
		if _, err := Decode(data[:n]); err == nil {
			t.Fatalf("truncated to %d bytes: no error", n)
		}
	}
}

// Valid envelopes with hostile parameters are errors, never panics.
func TestHostileParams(t *testing.T) {
	for _, p := range [][]uint64{
		{4, 0, 3}, {8, 1, 3}, {2, 1, 3}, {1, 1, 3}, {0, 1, 3}, {16, 1, 3}, {4, 1, 0},
		{4, 1, engine.MaxK + 1}, {4, 1 << 60, 3}, {4, 2, 3}, {4, 1, 3, 0},
	} {
		h := engine.Header{Family: engine.FamilyCounting, Version: formatVersion, Params: p}
		data, err := engine.AppendEnvelope(nil, h, make([]byte, 256))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(data); !errors.Is(err, engine.ErrFormat) {
			t.Errorf("params %v: error %v", p, err)
		}
	}
}

func FuzzDecode(f *testing.F) {
	small, _ := NewMK(512, 2)
	small.AddHash(1)
	data, _ := small.MarshalBinary()
	f.Add(data)
	wide, _ := NewMK(512, 9, WithCounterBits(8))
	wide.AddHash(1)
	data, _ = wide.MarshalBinary()
	f.Add(data)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Decode(data)
		if err == nil {
			if uint64(len(g.words))*8 > uint64(len(data)) {
				t.Fatalf("decoded %d words from %d bytes", len(g.words), len(data))
			}
			again, err := g.MarshalBinary()
			if err != nil || !bytes.Equal(again, data) {
				t.Fatal("decoded filter does not re-encode to its input")
			}
			g.TestHash(1)
			g.AddHash(2)
			g.RemoveHash(2)
		}
		var r Filter
		if _, err := r.ReadFrom(bytes.NewReader(data)); err == nil {
			r.TestHash(3)
		}
	})
}
