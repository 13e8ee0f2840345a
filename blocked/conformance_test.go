package blocked

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/batch"
	"github.com/filterengine/filterengine/internal/store"
	"github.com/filterengine/filterengine/internal/testkit/conformance"
)

// The family contract (engine's package doc), checked at compile time.
var (
	_ conformance.Membership[*Filter]   = (*Filter)(nil)
	_ conformance.Membership[*Narrow]   = (*Narrow)(nil)
	_ conformance.Membership[*Scalable] = (*Scalable)(nil)
	_ conformance.Membership[*Window]   = (*Window)(nil)
	_ conformance.Concurrent            = (*Filter)(nil)
	_ conformance.Concurrent            = (*Window)(nil)
)

// The families the suite runs: the Filter, Narrow at both block sizes,
// and the types built on blocked.
var (
	filterFamily   = conformance.Family[*Filter]{Name: "blocked.Filter", New: New, NewMK: NewMK, Decode: Decode, Read: Read}
	scalableFamily = conformance.Family[*Scalable]{Name: "blocked.Scalable", New: NewScalable, Decode: DecodeScalable, Read: ReadScalable}
	windowFamily   = conformance.Family[*Window]{
		Name: "blocked.Window",
		New: func(n uint64, p float64, opts ...engine.Option) (*Window, error) {
			return NewWindow(n, p, 4, opts...)
		},
		Decode: DecodeWindow,
		Read:   ReadWindow,
		// The suite adds its keys without rotating, so they share one
		// generation: ModelFPR assumes every generation full.
		ExpectedFPR: func(w *Window, n uint64) float64 { return FPR(w.M(), n, w.K()) },
	}
)

func narrowFamily(blockBits int) conformance.Family[*Narrow] {
	return conformance.Family[*Narrow]{
		Name: "blocked.Narrow",
		New: func(n uint64, p float64, opts ...engine.Option) (*Narrow, error) {
			return NewNarrow(n, p, blockBits, opts...)
		},
		NewMK: func(m uint64, k uint32, opts ...engine.Option) (*Narrow, error) {
			return NewNarrowMK(m, k, blockBits, opts...)
		},
		Decode: DecodeNarrow,
		Read:   ReadNarrow,
	}
}

func TestConformance(t *testing.T) {
	t.Run("Filter", func(t *testing.T) { conformance.Run(t, filterFamily) })
	t.Run("Narrow64", func(t *testing.T) { conformance.Run(t, narrowFamily(64)) })
	t.Run("Narrow128", func(t *testing.T) { conformance.Run(t, narrowFamily(128)) })
	t.Run("Scalable", func(t *testing.T) { conformance.Run(t, scalableFamily) })
	t.Run("Window", func(t *testing.T) { conformance.Run(t, windowFamily) })
}

// TestConformanceConcurrent is the suite's concurrency check alone, named
// so that make test's race run (-run Concurrent) covers it.
func TestConformanceConcurrent(t *testing.T) {
	conformance.RunConcurrent(t, filterFamily)
	conformance.RunConcurrent(t, windowFamily)
}

// recovered returns what f panicked with, or nil.
func recovered(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

// A zero Filter, and one after Close, hold no key: every read answers
// absent and every write panics with batch.Zero's message, never a raw
// index panic; encoding one is an ErrParam error.
func TestFilterZeroValue(t *testing.T) {
	want := recovered(func() { batch.Zero("blocked.Filter", "blocked.New") })
	closed, _ := New(100, 0.01)
	closed.Close()
	for name, f := range map[string]*Filter{"zero": {}, "closed": closed} {
		out := []bool{true, true}
		if f.Test([]byte("a")) || f.Test([]byte("8 bytes.")) || f.TestHash(1) || f.TestUint64(1) || f.TestString("a") || f.TestConcurrent([]byte("a")) ||
			f.TestHashes([]uint64{1, 2}, out) != 0 || out[0] || out[1] ||
			f.TestKeys([][]byte{{1}}, out) != 0 || f.TestUint64s([]uint64{1}, out) != 0 || out[0] {
			t.Errorf("%s Filter answers present", name)
		}
		if f.M() != 0 || f.SizeBytes() != 0 || f.EstimatedCount() != 0 || f.FillRatio() != 0 || f.ModelFPR(10) != 0 || f.HugePages() {
			t.Errorf("%s Filter is not empty: %v", name, f)
		}
		if c := f.Clone(); c.M() != 0 || c.Test([]byte("a")) {
			t.Errorf("%s Filter clones to %v", name, c)
		}
		for op, write := range map[string]func(){
			"Add":                  func() { f.Add([]byte("a")) },
			"Add of 8 bytes":       func() { f.Add([]byte("8 bytes.")) },
			"AddHash":              func() { f.AddHash(1) },
			"AddUint64":            func() { f.AddUint64(1) },
			"AddString":            func() { f.AddString("a") },
			"TestAndAdd":           func() { f.TestAndAdd([]byte("a")) },
			"TestAndAddHash":       func() { f.TestAndAddHash(1) },
			"AddHashes":            func() { f.AddHashes([]uint64{1}) },
			"AddUint64s":           func() { f.AddUint64s([]uint64{1}) },
			"AddKeys":              func() { f.AddKeys([][]byte{{1}}) },
			"AddConcurrent":        func() { f.AddConcurrent([]byte("a")) },
			"AddUint64sConcurrent": func() { f.AddUint64sConcurrent([]uint64{1}) },
		} {
			if got := recovered(write); got != want {
				t.Errorf("%s Filter %s panicked with %v, want %v", name, op, got, want)
			}
		}
		if _, err := f.MarshalBinary(); !errors.Is(err, engine.ErrParam) {
			t.Errorf("%s Filter MarshalBinary: %v", name, err)
		}
		if _, err := json.Marshal(struct{ F *Filter }{f}); err == nil {
			t.Errorf("%s Filter marshals to JSON", name)
		}
		if err := f.WriteFile(t.TempDir() + "/f"); !errors.Is(err, engine.ErrParam) {
			t.Errorf("%s Filter WriteFile: %v", name, err)
		}
	}
}

// A short out panics with batch.Out's one message, naming the type.
func TestShortOut(t *testing.T) {
	f, _ := New(100, 0.01)
	n, _ := NewNarrow(100, 0.01, 64)
	s, _ := NewScalable(100, 0.01)
	w, _ := NewWindow(100, 0.01, 2)
	out := make([]bool, 2)
	ks, hs, keys := []uint64{1, 2, 3}, []uint64{1, 2, 3}, [][]byte{{1}, {2}, {3}}
	for name, fl := range map[string]engine.Filter{"Filter": f, "Narrow": n, "Scalable": s, "Window": w} {
		for op, call := range map[string]func(){
			"TestHashes":  func() { fl.TestHashes(hs, out) },
			"TestUint64s": func() { fl.TestUint64s(ks, out) },
			"TestKeys":    func() { fl.TestKeys(keys, out) },
		} {
			msg, _ := recovered(call).(string)
			if !strings.HasPrefix(msg, "blocked."+name+": out has 2 elements for 3 keys") {
				t.Errorf("%s.%s with a short out panicked with %q", name, op, msg)
			}
		}
	}
}

// holder is a struct a service would encode with a filter inside.
type holder struct {
	Name   string
	Filter *Filter
	Narrow *Narrow
}

// Every type round-trips through encoding/json and encoding/gob inside a
// struct (their text and binary forms), and prints one short line.
func TestJSONGobAndString(t *testing.T) {
	f, _ := New(1000, 0.01, engine.WithSeed(3))
	n, _ := NewNarrow(1000, 0.01, 128)
	for i := range uint64(500) {
		f.AddUint64(i)
		n.AddUint64(i)
	}
	in := holder{"x", f, n}
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
		if !got.Filter.Equal(f) || got.Filter.Seed() != 3 || !bytes.Equal(wordsBytes(got.Narrow.words), wordsBytes(n.words)) {
			t.Errorf("%s round trip changed a filter", name)
		}
	}
	big, _ := New(1e6, 1e-9, engine.WithSeed(^uint64(0)))
	zeroS, zeroW := &Scalable{}, &Window{}
	for _, s := range []fmtStringer{f, big, &Filter{}, n, &Narrow{}, zeroS, zeroW} {
		if str := s.String(); len(str) > 200 || strings.Contains(str, "\n") || !strings.HasPrefix(str, "blocked.") {
			t.Errorf("String() = %q: want one line of at most 200 bytes", str)
		}
	}
}

type fmtStringer interface{ String() string }

func wordsBytes(w []uint64) []byte { return store.WordsBytes(w) }
