package spatial

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/store"
	"github.com/filterengine/filterengine/internal/testkit/filetest"
	"github.com/filterengine/filterengine/internal/testkit/fuzzenv"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldenFilter is the filter pinned by a golden file: 1000 keys spread
// evenly over the areas, seed 7, sized for 1% (m = 9623 cells, odd, k = 7).
func goldenFilter(t testing.TB, areas int) *Filter {
	f, err := New(1000, areas, 0.01, engine.WithSeed(7))
	if err != nil {
		t.Fatal(err)
	}
	for area := 1; area <= areas; area++ {
		keys, _ := keysOf(uint64(area), 1000/areas)
		if err := f.InsertKeys(keys, area); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// TestGolden decodes the golden files of libSBF's layout, 5 areas in 4-bit cells
// and 20 in 8-bit cells, checks their answers and statistics, and
// requires this code to encode the same filters to the same bytes.
func TestGolden(t *testing.T) {
	for _, c := range []struct {
		file            string
		areas, cellBits int
	}{{"golden-4bit.sbf", 5, 4}, {"golden-8bit.sbf", 20, 8}} {
		path := filepath.Join("testdata", c.file)
		built, err := goldenFilter(t, c.areas).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if *update {
			if err := os.WriteFile(path, built, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Decode(data)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if f.M() != 9623 || f.K() != 7 || f.Areas() != c.areas || f.Seed() != 7 || f.CellBits() != c.cellBits {
			t.Errorf("%s: m=%d k=%d areas=%d seed=%d cells of %d bits", c.file, f.M(), f.K(), f.Areas(), f.Seed(), f.CellBits())
		}
		checkMembers(t, f, 1000/c.areas)
		if s := f.Stats(); s.Members != 1000 || s.Area[c.areas-1].Members != uint64(1000/c.areas) {
			t.Errorf("%s: statistics lost: %d members", c.file, s.Members)
		}
		if !bytes.Equal(data, built) {
			t.Errorf("this code encodes the golden filter differently from testdata/%s: a format change needs a version bump", c.file)
		}
	}
}

// TestGoldenLineLocal pins the line-local layout: 1000
// keys over 5 areas in 4-bit cells, seed 7, sized by sizeForLineLocal for
// 1%; it decodes, answers, keeps its statistics and re-encodes the same.
func TestGoldenLineLocal(t *testing.T) {
	path := filepath.Join("testdata", "golden-line-4bit.sbf")
	g, err := New(1000, 5, 0.01, engine.WithSeed(7), WithLineLocal())
	if err != nil {
		t.Fatal(err)
	}
	for area := 1; area <= 5; area++ {
		keys, _ := keysOf(uint64(area), 200)
		if err := g.InsertKeys(keys, area); err != nil {
			t.Fatal(err)
		}
	}
	built, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(path, built, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h, _, err := store.DecodeEnvelope(data)
	if err != nil || h.Version != formatVersion || h.Params[5] != g.M()/128 {
		t.Fatalf("golden line-local file: version %d, params %v, %v", h.Version, h.Params, err)
	}
	f, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if !f.LineLocal() || f.M() != g.M() || f.M()%128 != 0 || f.K() != g.K() || f.CellBits() != 4 || f.Seed() != 7 {
		t.Errorf("line-local golden: line-local %v, m = %d, k = %d, %d-bit cells, seed %d", f.LineLocal(), f.M(), f.K(), f.CellBits(), f.Seed())
	}
	checkMembers(t, f, 200)
	if s := f.Stats(); s.Members != 1000 {
		t.Errorf("line-local golden: %d members", s.Members)
	}
	if !bytes.Equal(data, built) {
		t.Error("this code encodes the line-local golden filter differently from testdata: a format change needs a version bump")
	}
}

// Only the current format version decodes: the superseded ones (1, byte
// cells; 2, libSBF's layout without the lines parameter; never
// released) and any other are errors wrapping engine.ErrFormat that name
// the version.
func TestOtherVersions(t *testing.T) {
	line, err := NewMK(1280, 3, 5, WithLineLocal())
	if err != nil {
		t.Fatal(err)
	}
	decode := func(b []byte) error { _, err := Decode(b); return err }
	filetest.RunOtherVersions(t,
		filetest.Encoding{Name: "libSBF", Good: goldenFilter(t, 5).MarshalBinary, Decode: decode, Superseded: []uint16{1, 2}},
		filetest.Encoding{Name: "line-local", Good: line.MarshalBinary, Decode: decode, Superseded: []uint16{1, 2}})
}

func TestRoundTrip(t *testing.T) {
	for _, c := range []struct {
		areas int
		opt   engine.Option
	}{{6, nil}, {40, nil}, {700, nil}, {6, WithLineLocal()}, {40, WithLineLocal()}, {700, WithLineLocal()}} {
		areas := c.areas
		opts := []engine.Option{}
		if c.opt != nil {
			opts = append(opts, c.opt)
		}
		f, err := New(3000, areas, 0.01, opts...)
		if err != nil {
			t.Fatal(err)
		}
		insertShuffled(t, f, 3000/areas, 0, 11)
		data, err := f.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		g, err := Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := f.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), data) {
			t.Error("WriteTo and MarshalBinary differ")
		}
		var h Filter
		if n, err := h.ReadFrom(&buf); err != nil || n != int64(len(data)) {
			t.Fatalf("ReadFrom: %d bytes, %v", n, err)
		}
		for _, d := range []*Filter{g, &h} {
			if d.LineLocal() != f.LineLocal() || d.M() != f.M() || d.K() != f.K() {
				t.Errorf("decoded layout differs: line-local %v, m = %d, k = %d", d.LineLocal(), d.M(), d.K())
			}
			if !slices.Equal(d.cells, f.cells) {
				t.Error("decoded cells differ")
			}
			sf, sd := f.Stats(), d.Stats()
			if sf.Members != sd.Members || sf.Collisions != sd.Collisions || !slices.EqualFunc(sf.Area, sd.Area, func(a, b AreaStats) bool {
				return a.Members == b.Members && a.SelfCollisions == b.SelfCollisions && a.Cells == b.Cells
			}) {
				t.Error("decoded statistics differ")
			}
			checkMembers(t, d, 3000/areas)
		}
	}
}

// TestCorruptedBytes flips each bit pattern 0x01 and 0x80 in every byte,
// and truncates at every length, of small filters of each cell width
// (odd m included): every change is an ErrFormat.
func TestCorruptedBytes(t *testing.T) {
	for _, c := range []struct {
		m     uint64
		areas int
	}{{40, 4}, {41, 15}, {40, 20}, {13, 300}} {
		f, _ := NewMK(c.m, 3, c.areas)
		insertShuffled(t, f, 2, 0, 1)
		data, _ := f.MarshalBinary()
		for i := range data {
			for _, x := range []byte{1, 0x80} {
				bad := slices.Clone(data)
				bad[i] ^= x
				if _, err := Decode(bad); !errors.Is(err, engine.ErrFormat) {
					t.Fatalf("m=%d areas=%d: byte %d ^ %#x: %v, want ErrFormat", c.m, c.areas, i, x, err)
				}
			}
		}
		for n := range len(data) {
			if _, err := Decode(data[:n]); !errors.Is(err, engine.ErrFormat) {
				t.Fatalf("m=%d areas=%d: truncated to %d bytes: %v", c.m, c.areas, n, err)
			}
			var g Filter
			if _, err := g.ReadFrom(bytes.NewReader(data[:n])); !errors.Is(err, engine.ErrFormat) {
				t.Fatalf("m=%d areas=%d: ReadFrom truncated to %d bytes: %v", c.m, c.areas, n, err)
			}
		}
	}
}

// envelope re-encodes a payload with valid checksums, so the family's own
// checks are what must reject it.
func envelope(t *testing.T, version uint16, params []uint64, payload []byte) []byte {
	t.Helper()
	data, err := store.AppendEnvelope(nil, store.Header{Family: store.FamilySpatial, Version: version, Params: params}, payload)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestDecodeRejectsInconsistent(t *testing.T) {
	// 8 cells of 4 bits (labels 1, 2, 3, 0...) padded to 8 bytes, k = 2,
	// 3 areas, then 3 member and 3 self-collision counts.
	good := func() []byte {
		p := make([]byte, 8+48)
		copy(p, packCells([]uint16{1, 2, 3, 0, 0, 0, 0, 0}, 2))
		p[8], p[16], p[24] = 1, 1, 1
		return p
	}
	params := []uint64{8, 2, 3, 4, 1, 0}
	v := uint16(formatVersion)
	if _, err := Decode(envelope(t, v, params, good())); err != nil {
		t.Fatalf("consistent filter rejected: %v", err)
	}
	cases := map[string][]byte{}
	p := good()
	p[1] = 0x04
	cases["label above areas, low nibble"] = envelope(t, v, params, p)
	p = good()
	p[1] = 0x43
	cases["label above areas, high nibble"] = envelope(t, v, params, p)
	p = good()
	p[32] = 3
	cases["self-collisions above k*members"] = envelope(t, v, params, p)
	cases["collisions above probes"] = envelope(t, v, []uint64{8, 2, 3, 4, 7, 0}, good())
	cases["8-bit cells for 3 areas"] = envelope(t, v, []uint64{8, 2, 3, 8, 1, 0}, good())
	cases["cell bytes, not bits"] = envelope(t, v, []uint64{8, 2, 3, 1, 1, 0}, good())
	cases["4-bit cells for 20 areas"] = envelope(t, v, []uint64{8, 2, 20, 4, 1, 0}, append(good()[:8], make([]byte, 320)...))
	cases["5 parameters"] = envelope(t, v, params[:5], good())
	cases["line of 8 cells"] = envelope(t, v, []uint64{8, 2, 3, 4, 1, 1}, good())
	line := append(append(slices.Clone(good()[:8]), make([]byte, 56)...), good()[8:]...) // 128 cells, one line
	cases["2 lines of 128 cells"] = envelope(t, v, []uint64{128, 2, 3, 4, 1, 2}, line)
	cases["lines overflowing m"] = envelope(t, v, []uint64{128, 2, 3, 4, 1, 1 + 1<<57}, line)
	cases["k = 0"] = envelope(t, v, []uint64{8, 0, 3, 4, 1, 0}, good())
	cases["k > MaxK"] = envelope(t, v, []uint64{8, engine.MaxK + 1, 3, 4, 1, 0}, good())
	cases["m = 0"] = envelope(t, v, []uint64{0, 2, 3, 4, 1, 0}, good())
	cases["areas = 0"] = envelope(t, v, []uint64{8, 2, 0, 4, 1, 0}, good())
	cases["short payload"] = envelope(t, v, params, good()[:50])
	cases["huge m"] = envelope(t, v, []uint64{1 << 42, 2, 3, 4, 1, 0}, good())
	cases["params"] = envelope(t, v, params[:4], good())
	p = good()
	p[7] = 9
	cases["padding byte"] = envelope(t, v, params, p)
	p = good()
	p[3] = 0x10
	cases["padding nibble of odd m"] = envelope(t, v, []uint64{7, 2, 3, 4, 1, 0}, p)
	for name, data := range cases {
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Decode(data)
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		if !errors.Is(err, engine.ErrFormat) {
			t.Errorf("%s: %v, want ErrFormat", name, err)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<16 {
			t.Errorf("%s: decoding %d bytes allocated %d", name, len(data), grew)
		}
	}
	if f, err := Decode(envelope(t, v, []uint64{128, 2, 3, 4, 1, 1}, line)); err != nil || !f.LineLocal() {
		t.Errorf("one line of 128 4-bit cells rejected: %v", err)
	}
	// The same cells read as 7 cells (the eighth, a zero nibble, becomes
	// padding) are accepted.
	if _, err := Decode(envelope(t, v, []uint64{7, 2, 3, 4, 1, 0}, good())); err != nil {
		t.Errorf("7 cells of 4 bits with a zero padding nibble rejected: %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	g, _ := NewMK(30, 2, 300)
	for area := 1; area <= 300; area += 7 {
		_ = g.Insert(keyOf(uint64(area), 0), area)
	}
	seed, _ := g.MarshalBinary()
	seeds := [][]byte{seed}
	small, _ := NewMK(9, 3, 2) // 4-bit cells, odd m
	_ = small.Insert([]byte("x"), 2)
	seed, _ = small.MarshalBinary()
	seeds = append(seeds, seed)
	bytewide, _ := NewMK(17, 2, 40)
	for area := 1; area <= 40; area += 3 {
		_ = bytewide.Insert(keyOf(uint64(area), 1), area)
	}
	seed, _ = bytewide.MarshalBinary()
	seeds = append(seeds, seed)
	for _, areas := range []int{3, 40, 300} { // line-local, each width
		line, _ := NewMK(100, 3, areas, WithLineLocal())
		for area := 1; area <= areas; area += 5 {
			_ = line.Insert(keyOf(uint64(area), 2), area)
		}
		seed, _ = line.MarshalBinary()
		seeds = append(seeds, seed)
	}
	// A mutated envelope fails its checksums; the sealed form of each
	// input, as the first seed's kind, reaches the decoder (both layouts
	// share the version and the parameters).
	env := fuzzenv.AddSeeds(f, seeds...)
	check := func(t *testing.T, data []byte) {
		d, err := Decode(data)
		if err != nil {
			if !errors.Is(err, engine.ErrFormat) {
				t.Fatalf("error not wrapping ErrFormat: %v", err)
			}
			return
		}
		if cellBytes(d.M(), cellLogFor(d.Areas())) > uint64(len(data)) {
			t.Fatalf("decoded %d cells from %d bytes", d.M(), len(data))
		}
		again, err := d.MarshalBinary()
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("decoded filter re-encodes differently (%v)", err)
		}
		_ = d.Stats()
		_ = d.Check(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check(t, data)
		if sealed := env.Seal(data); sealed != nil {
			check(t, sealed)
		}
	})
}
