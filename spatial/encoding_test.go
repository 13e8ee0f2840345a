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
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldenFilter is the filter pinned by testdata/golden-v1.sbf: 5 areas of
// 200 keys, seed 7, sized for 1%.
func goldenFilter(t testing.TB) *Filter {
	f, err := New(1000, 5, 0.01, engine.WithSeed(7))
	if err != nil {
		t.Fatal(err)
	}
	for area := 1; area <= 5; area++ {
		keys, _ := keysOf(uint64(area), 200)
		if err := f.InsertKeys(keys, area); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func TestGolden(t *testing.T) {
	path := filepath.Join("testdata", "golden-v1.sbf")
	built, err := goldenFilter(t).MarshalBinary()
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
		t.Fatal(err)
	}
	if f.Cells() != 9623 || f.K() != 7 || f.Areas() != 5 || f.Seed() != 7 {
		t.Errorf("golden filter m=%d k=%d areas=%d seed=%d", f.Cells(), f.K(), f.Areas(), f.Seed())
	}
	checkMembers(t, f, 200)
	if s := f.Stats(); s.Members != 1000 || s.Area[4].Members != 200 {
		t.Errorf("golden statistics lost: %d members", s.Members)
	}
	if !bytes.Equal(data, built) {
		t.Error("this code encodes the golden filter differently from testdata/golden-v1.sbf: a format change needs a version bump")
	}
}

func TestRoundTrip(t *testing.T) {
	for _, areas := range []int{6, 700} {
		f := mustNew(t, 3000, areas, 0.01)
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

func TestCorruptedBytes(t *testing.T) {
	f, _ := NewMK(40, 3, 4)
	insertShuffled(t, f, 5, 0, 1)
	data, _ := f.MarshalBinary()
	for i := range data {
		for _, x := range []byte{1, 0x80} {
			bad := slices.Clone(data)
			bad[i] ^= x
			if _, err := Decode(bad); !errors.Is(err, engine.ErrFormat) {
				t.Fatalf("byte %d ^ %#x: %v, want ErrFormat", i, x, err)
			}
		}
	}
	for n := range len(data) {
		if _, err := Decode(data[:n]); !errors.Is(err, engine.ErrFormat) {
			t.Fatalf("truncated to %d bytes: %v", n, err)
		}
		var g Filter
		if _, err := g.ReadFrom(bytes.NewReader(data[:n])); !errors.Is(err, engine.ErrFormat) {
			t.Fatalf("ReadFrom truncated to %d bytes: %v", n, err)
		}
	}
}

// envelope re-encodes a payload with valid checksums, so the family's own
// checks are what must reject it.
func envelope(t *testing.T, seed uint64, params []uint64, payload []byte) []byte {
	t.Helper()
	data, err := engine.AppendEnvelope(nil, engine.Header{Family: engine.FamilySpatial, Version: formatVersion, Seed: seed, Params: params}, payload)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestDecodeRejectsInconsistent(t *testing.T) {
	// 8 cells of 1 byte, k = 2, 3 areas: cells then 3 member and 3 self-collision counts.
	good := func() []byte {
		p := make([]byte, 8+48)
		copy(p, []byte{1, 2, 3, 0, 0, 0, 0, 0})
		p[8], p[16], p[24] = 1, 1, 1
		return p
	}
	params := []uint64{8, 2, 3, 1, 1}
	if _, err := Decode(envelope(t, 0, params, good())); err != nil {
		t.Fatalf("consistent filter rejected: %v", err)
	}
	cases := map[string][]byte{}
	p := good()
	p[3] = 4
	cases["label above areas"] = envelope(t, 0, params, p)
	p = good()
	p[32] = 3
	cases["self-collisions above k*members"] = envelope(t, 0, params, p)
	cases["collisions above probes"] = envelope(t, 0, []uint64{8, 2, 3, 1, 7}, good())
	cases["cell bytes"] = envelope(t, 0, []uint64{8, 2, 3, 2, 1}, good())
	cases["k = 0"] = envelope(t, 0, []uint64{8, 0, 3, 1, 1}, good())
	cases["k > MaxK"] = envelope(t, 0, []uint64{8, engine.MaxK + 1, 3, 1, 1}, good())
	cases["m = 0"] = envelope(t, 0, []uint64{0, 2, 3, 1, 1}, good())
	cases["areas = 0"] = envelope(t, 0, []uint64{8, 2, 0, 1, 1}, good())
	cases["short payload"] = envelope(t, 0, params, good()[:50])
	cases["huge m"] = envelope(t, 0, []uint64{1 << 42, 2, 3, 1, 1}, good())
	cases["params"] = envelope(t, 0, params[:4], good())
	p = make([]byte, 8+48)
	p[7] = 0
	cases["padding"] = envelope(t, 0, []uint64{7, 2, 3, 1, 0}, append([]byte{0, 0, 0, 0, 0, 0, 0, 9}, p[8:]...))
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
}

func FuzzDecode(f *testing.F) {
	g, _ := NewMK(30, 2, 300)
	for area := 1; area <= 300; area += 7 {
		_ = g.Insert(keyOf(uint64(area), 0), area)
	}
	seed, _ := g.MarshalBinary()
	f.Add(seed)
	small, _ := NewMK(9, 3, 2)
	_ = small.Insert([]byte("x"), 2)
	seed, _ = small.MarshalBinary()
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Decode(data)
		if err != nil {
			if !errors.Is(err, engine.ErrFormat) {
				t.Fatalf("error not wrapping ErrFormat: %v", err)
			}
			return
		}
		if d.Cells()<<cellShift(d.Areas()) > uint64(len(data)) {
			t.Fatalf("decoded %d cells from %d bytes", d.Cells(), len(data))
		}
		again, err := d.MarshalBinary()
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("decoded filter re-encodes differently (%v)", err)
		}
		_ = d.Stats()
		_ = d.Check(data)
	})
}
