package counting

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/store"
	"github.com/filterengine/filterengine/internal/testkit/contracttest"
	"github.com/filterengine/filterengine/internal/testkit/filetest"
	"github.com/filterengine/filterengine/internal/testkit/fuzzenv"
	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
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

// goldenKeysAnswer checks a decoded golden filter: keys 0..499 present,
// few of 600..1999, key 0 counted 21 times (15 when 4-bit saturates), and
// its blocked twin answering alike.
func goldenKeysAnswer(t *testing.T, g *Filter, bits int, twin func([]uint64, []bool) int) {
	t.Helper()
	ks := make([]uint64, 2000)
	for i := range ks {
		ks[i] = uint64(i)
	}
	out := make([]bool, len(ks))
	outTwin := make([]bool, len(ks))
	g.TestUint64s(ks, out)
	twin(ks, outTwin)
	if !slices.Equal(out, outTwin) {
		t.Error("golden twin disagrees with golden filter")
	}
	for i := range 500 {
		if !out[i] || !g.TestUint64(uint64(i)) {
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

// The goldens pin today's encoding.
func TestGolden(t *testing.T) {
	for _, bits := range []int{4, 8} {
		name := filepath.Join("testdata", fmt.Sprintf("counting%d.golden", bits))
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
		if g.K() != f.K() || g.Lines() != f.Lines() || g.Seed() != 7 || g.CounterBits() != bits {
			t.Errorf("decoded geometry k %d lines %d seed %d bits %d", g.K(), g.Lines(), g.Seed(), g.CounterBits())
		}
		gb, err := g.ToBloom()
		if err != nil {
			t.Fatal(err)
		}
		kerneltest.ForEachLevel(t, func(t *testing.T) {
			goldenKeysAnswer(t, g, bits, gb.TestUint64s)
		})
	}
}

// Only the current format version decodes: the superseded version 1
// (lines of 512 counters, never released), and any other, is an error
// wrapping engine.ErrFormat that names the version.
func TestOtherVersions(t *testing.T) {
	filetest.RunOtherVersions(t, filetest.Encoding{Name: "Filter", Good: goldenFilter(t, 4).MarshalBinary,
		Decode: func(b []byte) error { _, err := Decode(b); return err }, Superseded: []uint16{1}})
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
		{4, 0, 3}, {8, 3, 3}, {2, 1, 3}, {1, 1, 3}, {0, 1, 3}, {16, 1, 3}, {4, 1, 0},
		{4, 1, engine.MaxK + 1}, {4, 1 << 60, 3}, {4, 2, 3}, {4, 1, 3, 0}, {4, 4, 3},
	} {
		h := store.Header{Family: store.FamilyCounting, Version: formatVersion, Params: p}
		data, err := store.AppendEnvelope(nil, h, make([]byte, 64))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(data); !errors.Is(err, engine.ErrFormat) {
			t.Errorf("params %v: error %v", p, err)
		}
	}
	// the same envelope with valid parameters decodes
	h := store.Header{Family: store.FamilyCounting, Version: formatVersion, Params: []uint64{4, 1, 3}}
	data, _ := store.AppendEnvelope(nil, h, make([]byte, 64))
	if _, err := Decode(data); err != nil {
		t.Errorf("one 4-bit line: %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	small, _ := NewMK(512, 2)
	small.AddHash(1)
	data, _ := small.MarshalBinary()
	seeds := [][]byte{data}
	wide, _ := NewMK(512, 9, WithCounterBits(8))
	wide.AddHash(1)
	data, _ = wide.MarshalBinary()
	seeds = append(seeds, data)
	for _, name := range []string{"counting4.golden", "counting8.golden"} {
		if golden, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			seeds = append(seeds, golden)
		}
	}
	// A mutated envelope fails its checksums; the sealed form of each
	// input, as the first seed's kind, reaches the decoder.
	env := fuzzenv.AddSeeds(f, seeds...)
	f.Add([]byte{})
	check := func(t *testing.T, data []byte) {
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
			g.CountHash(3)
			g.TestHashes([]uint64{4, 5}, make([]bool, 2))
		}
		var r Filter
		if _, err := r.ReadFrom(bytes.NewReader(data)); err == nil {
			r.TestHash(3)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check(t, data)
		if sealed := env.Seal(data); sealed != nil {
			check(t, sealed)
		}
	})
}

// A struct holding a filter round-trips through encoding/json (the
// MarshalText form) and encoding/gob (the binary form), and Read and
// Decode take their storage option.
func TestTextJSONGobReadDecode(t *testing.T) {
	widths(t, func(t *testing.T, bits int) {
		f := mustNew(t, 2000, 0.01, WithCounterBits(bits), engine.WithSeed(5))
		hs := randomHashes(2000, 21)
		f.AddHashes(hs)
		fromJSON, fromGob := contracttest.JSONAndGob(t, f)
		data, _ := f.MarshalBinary()
		read, err := Read(bytes.NewReader(data), engine.WithHugePages(engine.HugePagesNever))
		if err != nil {
			t.Fatal(err)
		}
		dec, err := Decode(data, engine.WithHugePages(engine.HugePagesAlways))
		if err != nil {
			t.Fatal(err)
		}
		for name, g := range map[string]*Filter{"json": fromJSON, "gob": fromGob, "Read": read, "Decode": dec, "Clone": f.Clone()} {
			if !slices.Equal(g.words, f.words) || g.k != f.k || g.seed != 5 || g.wide != f.wide {
				t.Fatalf("%s: the filter changed", name)
			}
		}
		if read.HugePages() {
			t.Error("Read with HugePagesNever gave huge pages")
		}
		if err := new(Filter).UnmarshalText([]byte("not base64!")); !errors.Is(err, engine.ErrFormat) {
			t.Errorf("UnmarshalText of bad text: %v", err)
		}
	})
}
