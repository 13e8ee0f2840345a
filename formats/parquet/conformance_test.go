package parquet

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/batch"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/hashing"
	"github.com/filterengine/filterengine/internal/testkit/conformance"
	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

// The family contract (engine's package doc), checked at compile time.
var _ conformance.Membership[*Filter] = (*Filter)(nil)

// family runs Filter through the conformance suite: sized for n values at
// p as arrow sizes it, hashed with XXH64, serialized in Parquet's form.
var family = conformance.Family[*Filter]{
	Name: "parquet.Filter",
	New: func(n uint64, p float64, opts ...engine.Option) (*Filter, error) {
		if len(opts) > 0 {
			return nil, errs.ParamErrorf("parquet.Filter takes no options")
		}
		bits, err := engine.OptimalBits(n, p)
		if err != nil {
			return nil, err
		}
		if bits > 8*MaxBytes {
			// OptimalNumBytes caps the size as arrow does; a filter for
			// n keys at p must not silently be smaller.
			return nil, errs.ParamErrorf("n = %d at p = %v needs more than a Parquet filter's %d bytes", n, p, MaxBytes)
		}
		return New(OptimalNumBytes(n, p))
	},
	Decode: func(data []byte, _ ...engine.Option) (*Filter, error) { return Decode(data) },
	Read:   func(r io.Reader, _ ...engine.Option) (*Filter, error) { return Read(r) },
	Hash:   func(key []byte, _ uint64) uint64 { return hashing.XXH64(key, 0) },
	NoSeed: true,
}

func TestConformance(t *testing.T) { conformance.Run(t, family) }

// recovered returns what f panicked with, or nil.
func recovered(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

// A zero Filter's writes panic with batch.Zero's message, which errZero
// spells out so that AddHash stays inlinable.
func TestZeroPanicMessage(t *testing.T) {
	var f Filter
	want := recovered(func() { batch.Zero("parquet.Filter", "parquet.New") })
	for op, write := range map[string]func(){
		"AddHash":    func() { f.AddHash(1) },
		"AddHashes":  func() { f.AddHashes([]uint64{1}) },
		"AddUint64s": func() { f.AddUint64s([]uint64{1}) },
		"AddKeys":    func() { f.AddKeys([][]byte{{1}}) },
	} {
		if got := recovered(write); got != want {
			t.Errorf("zero Filter %s panicked with %v, want %v", op, got, want)
		}
	}
}

// A short out panics with batch.Out's one message, naming the type.
func TestShortOut(t *testing.T) {
	f, _ := New(1024)
	out := make([]bool, 2)
	for op, call := range map[string]func(){
		"TestHashes":  func() { f.TestHashes([]uint64{1, 2, 3}, out) },
		"TestUint64s": func() { f.TestUint64s([]uint64{1, 2, 3}, out) },
		"TestKeys":    func() { f.TestKeys([][]byte{{1}, {2}, {3}}, out) },
	} {
		msg, _ := recovered(call).(string)
		if !strings.HasPrefix(msg, "parquet.Filter: out has 2 elements for 3 keys") {
			t.Errorf("%s with a short out panicked with %q", op, msg)
		}
	}
}

// A Filter round-trips through encoding/json and encoding/gob inside a
// struct (its text and binary forms), and prints one short line.
func TestJSONGobAndString(t *testing.T) {
	type holder struct {
		Name   string
		Filter *Filter
	}
	f, _ := New(OptimalNumBytes(1000, 0.01))
	for i := range uint64(500) {
		f.AddUint64(i)
	}
	in := holder{"x", f}
	js, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var fromJSON holder
	if err := json.Unmarshal(js, &fromJSON); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(in); err != nil {
		t.Fatal(err)
	}
	var fromGob holder
	if err := gob.NewDecoder(&buf).Decode(&fromGob); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]holder{"json": fromJSON, "gob": fromGob} {
		if !got.Filter.Equal(f) {
			t.Errorf("%s round trip changed the filter", name)
		}
	}
	for _, s := range []*Filter{f, {}} {
		if str := s.String(); len(str) > 200 || strings.Contains(str, "\n") || !strings.HasPrefix(str, "parquet.Filter{") {
			t.Errorf("String() = %q: want one line of at most 200 bytes", str)
		}
	}
}

// The hot paths allocate nothing on any kernel.
func TestAllocs(t *testing.T) {
	f, _ := New(OptimalNumBytes(10_000, 0.01))
	ks := testValues(5, 1000)
	hs := make([]uint64, len(ks))
	asm.XXH64Uint64s(hs, ks)
	keys := make([][]byte, len(ks))
	for i, k := range ks {
		keys[i] = []byte{byte(k), byte(k >> 8), byte(k >> 16), byte(k >> 24)}
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
