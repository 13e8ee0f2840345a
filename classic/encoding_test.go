package classic

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"os"
	"runtime"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/fuzzenv"
	"github.com/filterengine/filterengine/internal/store"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const goldenPath = "testdata/classic-v1.golden"

// goldenFilter is the filter pinned by the golden file: m not a multiple
// of 64, a seed, and keys "key-0".."key-99".
func goldenFilter(t testing.TB) *Filter {
	f, err := NewMK(1000, 5, engine.WithSeed(42))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		f.Add([]byte("key-" + string(rune('0'+i/10)) + string(rune('0'+i%10))))
	}
	return f
}

func TestGolden(t *testing.T) {
	want, err := goldenFilter(t).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(goldenPath, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("encoding of the golden filter changed: the format needs a version bump and a reader for version 1")
	}
	var f Filter
	if err := f.UnmarshalBinary(got); err != nil {
		t.Fatal(err)
	}
	if f.M() != 1000 || f.K() != 5 || f.Seed() != 42 {
		t.Fatalf("golden decoded as m=%d k=%d seed=%d", f.M(), f.K(), f.Seed())
	}
	for i := range 100 {
		if !f.Test([]byte("key-" + string(rune('0'+i/10)) + string(rune('0'+i%10)))) {
			t.Fatalf("golden filter lost key %d", i)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	f, _ := New(50_000, 0.01, engine.WithSeed(9))
	ks := members(50_000)
	f.AddUint64s(ks)
	data, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var g Filter
	if err := g.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if !g.Equal(f) {
		t.Fatal("UnmarshalBinary(MarshalBinary(f)) != f")
	}
	var buf bytes.Buffer
	n, err := f.WriteTo(&buf)
	if err != nil || n != int64(len(data)) || !bytes.Equal(buf.Bytes(), data) {
		t.Fatalf("WriteTo wrote %d bytes (err %v), MarshalBinary %d", n, err, len(data))
	}
	buf.WriteString("trailing") // ReadFrom must stop at the envelope's end
	var h Filter
	if n, err := h.ReadFrom(&buf); err != nil || n != int64(len(data)) {
		t.Fatalf("ReadFrom read %d bytes, err %v", n, err)
	}
	if !h.Equal(f) || buf.String() != "trailing" {
		t.Fatal("ReadFrom did not restore the filter exactly")
	}
	out := make([]bool, len(ks))
	if hits := h.TestUint64s(ks, out); hits != len(ks) {
		t.Fatalf("round-tripped filter finds %d of %d keys", hits, len(ks))
	}
}

// Any single corrupted byte is an error, never a panic or a wrong filter.
func TestCorruptEveryByte(t *testing.T) {
	data, _ := goldenFilter(t).MarshalBinary()
	for i := range data {
		bad := bytes.Clone(data)
		bad[i] ^= 0x20
		var f Filter
		if err := f.UnmarshalBinary(bad); !errors.Is(err, engine.ErrFormat) {
			t.Fatalf("byte %d corrupted: err = %v", i, err)
		}
		if _, err := f.ReadFrom(bytes.NewReader(bad)); !errors.Is(err, engine.ErrFormat) {
			t.Fatalf("byte %d corrupted, ReadFrom: err = %v", i, err)
		}
	}
	for n := range len(data) {
		var f Filter
		if err := f.UnmarshalBinary(data[:n]); err == nil {
			t.Fatalf("truncated to %d bytes: no error", n)
		}
	}
}

// A header that claims a huge payload (with valid checksums) over a short
// stream costs an error and little memory.
func TestHostileLength(t *testing.T) {
	h := store.Header{Family: store.FamilyClassic, Version: formatVersion, Params: []uint64{1 << 40, 3}}
	data, err := store.AppendEnvelope(nil, h, make([]byte, 64))
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint64(data[24:], 1<<37) // claim 128 GiB of payload
	// Re-seal the header so only the length lies.
	resealed := resealHeader(data)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var f Filter
	_, err = f.ReadFrom(bytes.NewReader(resealed))
	runtime.ReadMemStats(&after)
	if !errors.Is(err, engine.ErrFormat) {
		t.Fatalf("err = %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
		t.Fatalf("ReadFrom of a %d-byte hostile input allocated %d bytes", len(resealed), grew)
	}
	if err := f.UnmarshalBinary(resealed); !errors.Is(err, engine.ErrFormat) {
		t.Fatalf("UnmarshalBinary: err = %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	good, _ := goldenFilter(f).MarshalBinary()
	// A mutated envelope fails its checksums; the sealed form of each
	// input reaches the decoder.
	env := fuzzenv.AddSeeds(f, good)
	f.Add([]byte{})
	check := func(t *testing.T, data []byte) {
		var a, b Filter
		errA := a.UnmarshalBinary(data)
		if d, err := Decode(data); (err == nil) != (errA == nil) || err == nil && !d.Equal(&a) {
			t.Fatalf("Decode (%v) and UnmarshalBinary (%v) disagree", err, errA)
		}
		n, errB := b.ReadFrom(bytes.NewReader(data))
		// ReadFrom takes one envelope from a stream, so it may accept a
		// prefix; UnmarshalBinary takes exactly one envelope.
		if errB == nil {
			var c Filter
			if err := c.UnmarshalBinary(data[:n]); err != nil || !c.Equal(&b) {
				t.Fatalf("ReadFrom accepted %d bytes that UnmarshalBinary rejects: %v", n, err)
			}
		}
		if errA != nil {
			return
		}
		if errB != nil || n != int64(len(data)) {
			t.Fatalf("UnmarshalBinary accepted what ReadFrom rejects: %v", errB)
		}
		again, err := a.MarshalBinary()
		if err != nil || !bytes.Equal(again, data) || !a.Equal(&b) {
			t.Fatal("a decoded filter does not re-encode to its input")
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check(t, data)
		if sealed := env.Seal(data); sealed != nil {
			check(t, sealed)
		}
	})
}
