package shifting

import (
	"bytes"
	"encoding"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/testkit/contracttest"
)

// roundTripText round-trips v through encoding/json and encoding/gob (a
// struct holding it, contracttest.JSONAndGob) and returns the copies; each
// must re-encode to v's binary form. It also wants String on one short
// line and non-base64 text refused. The conformance suite checks this for
// the membership Filter; Association and Multiplicity run it here.
func roundTripText[T interface {
	contracttest.Codec
	encoding.TextUnmarshaler
	fmt.Stringer
}](t *testing.T, v T, fresh func() T) []T {
	t.Helper()
	bin, err := v.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	fromJSON, fromGob := contracttest.JSONAndGob(t, v)
	for name, c := range map[string]T{"json": fromJSON, "gob": fromGob} {
		if again, err := c.MarshalBinary(); err != nil || !bytes.Equal(again, bin) {
			t.Fatalf("%s round trip changed the encoding (err %v)", name, err)
		}
	}
	if s := v.String(); len(s) > 200 || strings.Contains(s, "\n") {
		t.Fatalf("String is %d bytes: %q", len(s), s)
	}
	if err := fresh().UnmarshalText([]byte("not base64!")); !errors.Is(err, engine.ErrFormat) {
		t.Fatalf("UnmarshalText of non-base64: %v", err)
	}
	return []T{fromJSON, fromGob}
}

func TestTextCodecs(t *testing.T) {
	ks := members(memberBase, 3000)
	a, _ := NewAssociation(3000, 0.01)
	for _, k := range ks {
		_ = a.AddUint64(k, InBoth)
	}
	for _, c := range roundTripText(t, a, func() *Association { return new(Association) }) {
		if !c.QueryUint64(ks[7]).Has(Both) {
			t.Fatal("association round trip lost a key")
		}
	}
	x, _ := NewMultiplicity(3000, 0.01, MaxCount, WithCounters())
	for _, k := range ks {
		_ = x.AddUint64(k, 5)
	}
	for _, c := range roundTripText(t, x, func() *Multiplicity { return new(Multiplicity) }) {
		if c.CountUint64(ks[7]) < 5 {
			t.Fatal("multiplicity round trip lost a count")
		}
	}
}

// Decode rejects an option it does not know (the conformance suite's
// Codecs check Filter's round trips and Clone); DecodeAssociation,
// ReadAssociation, DecodeMultiplicity, ReadMultiplicity and the Clones of
// those two types, which the suite does not run, give back the filter
// MarshalBinary wrote, independent of the original.
func TestDecodeReadClone(t *testing.T) {
	f, _ := New(5000, 0.01, WithSecondArray(), engine.WithSeed(4))
	data, _ := f.MarshalBinary()
	if _, err := Decode(data, WithSecondArray()); !errors.Is(err, engine.ErrParam) {
		t.Fatalf("Decode with a family option: %v", err)
	}

	a, _ := NewAssociation(1000, 0.01)
	_ = a.AddString("k", InS2)
	ab, _ := a.MarshalBinary()
	for _, fn := range []func() (*Association, error){
		func() (*Association, error) { return DecodeAssociation(ab) },
		func() (*Association, error) { return ReadAssociation(bytes.NewReader(ab)) },
		func() (*Association, error) { return a.Clone(), nil },
	} {
		if b, err := fn(); err != nil || b.QueryString("k") != OnlyS2 && !b.QueryString("k").Has(OnlyS2) {
			t.Fatalf("association decode/clone: %v", err)
		}
	}
	x, _ := NewMultiplicity(1000, 0.01, 9, WithCounters())
	_ = x.AddString("k", 3)
	xb, _ := x.MarshalBinary()
	for _, fn := range []func() (*Multiplicity, error){
		func() (*Multiplicity, error) { return DecodeMultiplicity(xb) },
		func() (*Multiplicity, error) { return ReadMultiplicity(bytes.NewReader(xb)) },
		func() (*Multiplicity, error) { return x.Clone(), nil },
	} {
		y, err := fn()
		if err != nil || y.CountString("k") < 3 {
			t.Fatalf("multiplicity decode/clone: %v", err)
		}
		if err := y.UpdateString("k", 3, 1); err != nil || x.CountString("k") < 3 {
			t.Fatalf("an update of a copy reached the original: %v", err)
		}
	}
	if _, err := DecodeMultiplicity(xb, config.FamilyOption(1)); !errors.Is(err, engine.ErrParam) {
		t.Fatalf("DecodeMultiplicity with a foreign option: %v", err)
	}
}

// Zero values answer their accessors as empty filters and panic, naming
// the constructor, in every method that reads or writes bits.
func TestZeroValues(t *testing.T) {
	var z Filter
	var za Association
	var zx Multiplicity
	if z.M() != 0 || z.SizeBytes() != 0 || za.SizeBytes() != 0 || zx.SizeBytes() != 0 || z.HugePages() || z.Close() != nil ||
		za.HugePages() || za.Close() != nil || zx.HugePages() || zx.Close() != nil {
		t.Fatal("zero accessors")
	}
	for _, s := range []fmt.Stringer{&z, &za, &zx} {
		if !strings.Contains(s.String(), "zero, use shifting.New") {
			t.Fatalf("zero String %q", s)
		}
	}
	const want = "shifting.Filter: zero value, use shifting.New"
	calls := contracttest.KeyCalls(&z)
	calls["WriteFile"] = func() { _ = z.WriteFile(t.TempDir() + "/f") }
	contracttest.Panics(t, want, calls)

	const wantA = "shifting.Association: zero value, use shifting.NewAssociation"
	contracttest.Panic(t, "Association.Add", wantA, func() { _ = za.Add([]byte("x"), InS1) })
	contracttest.Panic(t, "Association.Query", wantA, func() { za.Query([]byte("x")) })
	contracttest.Panic(t, "Association.Clone", wantA, func() { za.Clone() })
	contracttest.Panic(t, "Association.MarshalBinary", wantA, func() { _, _ = za.MarshalBinary() })
	const wantX = "shifting.Multiplicity: zero value, use shifting.NewMultiplicity"
	contracttest.Panic(t, "Multiplicity.Count", wantX, func() { zx.Count([]byte("x")) })
	contracttest.Panic(t, "Multiplicity.Clone", wantX, func() { zx.Clone() })
	contracttest.Panic(t, "Multiplicity.MarshalBinary", wantX, func() { _, _ = zx.MarshalBinary() })
	contracttest.Panic(t, "Multiplicity.Add", wantX, func() { _ = zx.Add([]byte("x"), 1) })
	contracttest.Panic(t, "Multiplicity.Update", wantX, func() { _ = zx.Update([]byte("x"), 0, 1) })
	// A zero value decodes into a real filter.
	g, _ := New(10, 0.01)
	data, _ := g.MarshalBinary()
	if err := z.UnmarshalBinary(data); err != nil {
		t.Fatalf("UnmarshalBinary into a zero Filter: %v", err)
	}
	if again, _ := z.MarshalBinary(); !bytes.Equal(again, data) {
		t.Fatal("a zero Filter decoded into something else than the filter it was given")
	}
}
