package blocked

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/store"
	"github.com/filterengine/filterengine/internal/testkit/fuzzenv"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// Well-formed envelopes with parameters no filter has, and another
// family's, are format errors (the conformance suite's Corruption covers
// changed and truncated bytes).
func TestDecodeCorrupted(t *testing.T) {
	for _, p := range [][]uint64{{0, 8}, {500, 8}, {512, 0}, {512, 65}, {1024, 8}} {
		h := store.Header{Family: store.FamilyBlocked, Version: formatVersion, Params: p}
		b, _ := store.AppendEnvelope(nil, h, make([]byte, 64))
		if _, err := Decode(b); !errors.Is(err, engine.ErrFormat) {
			t.Errorf("params %v: error %v", p, err)
		}
	}
	other, _ := store.AppendEnvelope(nil, store.Header{Family: store.FamilyClassic, Version: formatVersion, Params: []uint64{512, 8}}, make([]byte, 64))
	if _, err := Decode(other); !errors.Is(err, engine.ErrFormat) {
		t.Errorf("classic envelope decoded as blocked: %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	g, _ := NewMK(2*512, 8)
	g.AddUint64s(randomKeys(1, 10))
	good, _ := g.MarshalBinary()
	// A mutated envelope fails its checksums; the sealed form of each
	// input reaches the decoder.
	env := fuzzenv.AddSeeds(f, good)
	check := func(t *testing.T, data []byte) {
		d, err := Decode(data)
		if err != nil {
			if !errors.Is(err, engine.ErrFormat) && !errors.Is(err, engine.ErrParam) {
				t.Fatalf("error %v wraps neither ErrFormat nor ErrParam", err)
			}
			return
		}
		if d.SizeBytes()+store.HeaderSize != uint64(len(data)) {
			t.Fatalf("decoded %d bytes of array from %d bytes", d.SizeBytes(), len(data))
		}
		again, _ := d.MarshalBinary()
		if !bytes.Equal(again, data) {
			t.Fatal("re-encoding differs from the accepted input")
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check(t, data)
		if sealed := env.Seal(data); sealed != nil {
			check(t, sealed)
		}
	})
}

// UnmarshalText takes hostile text to an error wrapping ErrFormat (or
// ErrParam), never a panic, and what it accepts re-encodes to itself.
func FuzzUnmarshalText(f *testing.F) {
	g, _ := NewMK(2*512, 8)
	g.AddUint64s(randomKeys(1, 10))
	good, _ := g.MarshalText()
	f.Add(good)
	f.Add(good[:40])
	f.Add([]byte("not base64!"))
	f.Fuzz(func(t *testing.T, text []byte) {
		var d Filter
		if err := d.UnmarshalText(text); err != nil {
			if !errors.Is(err, engine.ErrFormat) && !errors.Is(err, engine.ErrParam) {
				t.Fatalf("error %v wraps neither ErrFormat nor ErrParam", err)
			}
			if d.M() != 0 {
				t.Fatal("a rejected text changed the filter")
			}
			return
		}
		again, err := d.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var e Filter
		if err := e.UnmarshalText(again); err != nil || !e.Equal(&d) {
			t.Fatalf("re-encoding does not decode to the same filter (%v)", err)
		}
	})
}

// The golden filter: 1000 keys 0..999 (as 8 little-endian bytes) in
// New(1000, 0.01, WithSeed(2024)).
const goldenFile = "golden_p1_n1000_seed2024.bin"

func TestGolden(t *testing.T) {
	path := filepath.Join("testdata", goldenFile)
	if *update {
		f, _ := New(1000, 0.01, engine.WithSeed(2024))
		for k := range uint64(1000) {
			f.Add(keyBytes(k))
		}
		data, _ := f.MarshalBinary()
		if err := os.WriteFile(path, data, 0o644); err != nil {
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
	if f.K() != 6 || f.Lines() != 20 || f.Seed() != 2024 {
		t.Errorf("golden filter: k=%d lines=%d seed=%d", f.K(), f.Lines(), f.Seed())
	}
	fp := 0
	for k := range uint64(101_000) {
		hit := f.Test(keyBytes(k))
		if k < 1000 && !hit {
			t.Fatalf("golden filter lost key %d", k)
		}
		if k >= 1000 && hit {
			fp++
		}
	}
	// Pinned answer of the format: the false positives among 1000..100999.
	const goldenFP = 893
	if fp != goldenFP {
		t.Errorf("golden filter: %d false positives among 100000 absent keys, pinned %d", fp, goldenFP)
	}
}
