package classic

import (
	"bytes"
	"encoding"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/contracttest"
	"github.com/filterengine/filterengine/internal/kerneltest"
)

// codecFilter is what the codec round trips need of each classic type.
type codecFilter interface {
	encoding.BinaryMarshaler
	encoding.TextMarshaler
	fmt.Stringer
	TestUint64s(ks []uint64, out []bool) int
}

// checkTextCodecs round-trips f through encoding/json (a struct holding
// the filter), encoding/gob and UnmarshalText, checks that every key of
// ks is found in each copy, and that String is one short line.
func checkTextCodecs[T codecFilter](t *testing.T, f T, fresh func() T, ks []uint64) {
	t.Helper()
	bin, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	type holder struct {
		Name   string
		Filter T
	}
	js, err := json.Marshal(holder{"x", f})
	if err != nil {
		t.Fatal(err)
	}
	if len(js) < len(bin) {
		t.Fatalf("json.Marshal wrote %d bytes for a %d-byte filter: %.60s", len(js), len(bin), js)
	}
	h := holder{Filter: fresh()}
	if err := json.Unmarshal(js, &h); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(holder{"x", f}); err != nil {
		t.Fatal(err)
	}
	g := holder{Filter: fresh()}
	if err := gob.NewDecoder(&buf).Decode(&g); err != nil {
		t.Fatal(err)
	}
	out := make([]bool, len(ks))
	for name, c := range map[string]T{"json": h.Filter, "gob": g.Filter} {
		again, err := c.MarshalBinary()
		if err != nil || !bytes.Equal(again, bin) {
			t.Fatalf("%s round trip changed the encoding (err %v)", name, err)
		}
		if hits := c.TestUint64s(ks, out); hits != len(ks) {
			t.Fatalf("%s round trip finds %d of %d keys", name, hits, len(ks))
		}
	}
	if s := f.String(); len(s) > 200 || strings.ContainsAny(s, "\n") {
		t.Fatalf("String is %d bytes: %q", len(s), s)
	}
	bad := fresh()
	if err := any(bad).(encoding.TextUnmarshaler).UnmarshalText([]byte("not base64!")); !errors.Is(err, engine.ErrFormat) {
		t.Fatalf("UnmarshalText of non-base64: %v", err)
	}
}

func TestTextCodecs(t *testing.T) {
	ks := members(5000)
	f, _ := New(5000, 0.01, engine.WithSeed(3))
	f.AddUint64s(ks)
	checkTextCodecs(t, f, func() *Filter { return new(Filter) }, ks)
	d, _ := NewDynamic(1000, 0.01)
	d.AddUint64s(ks)
	checkTextCodecs(t, d, func() *Dynamic { return new(Dynamic) }, ks)
	r, _ := NewRetouched(5000, 0.01)
	r.AddUint64s(ks)
	checkTextCodecs(t, r, func() *Retouched { return new(Retouched) }, ks)
}

// Decode and Read give the filter MarshalBinary and WriteTo wrote, honour
// the storage option and reject family options they do not know.
func TestDecodeRead(t *testing.T) {
	ks := members(20_000)
	f, _ := New(20_000, 0.01, engine.WithSeed(5))
	f.AddUint64s(ks)
	data, _ := f.MarshalBinary()
	g, err := Decode(data, engine.WithHugePages(engine.HugePagesNever))
	if err != nil || !g.Equal(f) || g.HugePages() {
		t.Fatalf("Decode: %v (equal %v)", err, err == nil && g.Equal(f))
	}
	h, err := Read(bytes.NewReader(data))
	if err != nil || !h.Equal(f) {
		t.Fatalf("Read: %v", err)
	}
	if _, err := Decode(data, engine.FamilyOption(struct{}{})); !errors.Is(err, engine.ErrParam) {
		t.Fatalf("Decode with a foreign option: %v", err)
	}
	if _, err := Decode(data[:len(data)-1]); !errors.Is(err, engine.ErrFormat) {
		t.Fatalf("Decode of truncated bytes: %v", err)
	}
	c := f.Clone()
	c.AddUint64(1 << 60)
	if !c.TestUint64(1<<60) || f.Equal(c) {
		t.Fatal("Clone shares its bits with the original")
	}
}

// A zero Filter answers its accessors as an empty filter and panics,
// naming New, in every method that reads or writes bits: never "present",
// never a nil dereference.
func TestZeroFilter(t *testing.T) {
	var z Filter
	if z.M() != 0 || z.K() != 0 || z.SizeBytes() != 0 || z.HugePages() || z.Close() != nil {
		t.Fatal("zero Filter accessors")
	}
	if s := z.String(); !strings.Contains(s, "classic.New") {
		t.Fatalf("zero String %q", s)
	}
	const want = "classic.Filter: zero value, use classic.New"
	g, _ := New(10, 0.01)
	calls := contracttest.KeyCalls(&z)
	calls["PopCount"] = func() { z.PopCount() }
	calls["Reset"] = func() { z.Reset() }
	calls["WriteFile"] = func() { _ = z.WriteFile(t.TempDir() + "/f") }
	calls["Union"] = func() { _ = z.Union(&Filter{}) }
	calls["Equal"] = func() { z.Equal(&Filter{}) }
	contracttest.Panics(t, want, calls)

	if err := z.Union(g); !errors.Is(err, engine.ErrParam) {
		t.Fatalf("zero.Union(g): %v", err)
	}
	// A zero Filter decodes into a real one.
	data, _ := g.MarshalBinary()
	if err := z.UnmarshalBinary(data); err != nil || !z.Equal(g) {
		t.Fatalf("UnmarshalBinary into a zero Filter: %v", err)
	}
}

// TestHashConcurrent runs AddUint64sConcurrent batches of every tail
// length beside TestHashConcurrent readers of the keys already added;
// under -race in make test, at every kernel level.
func TestHashConcurrent(t *testing.T) {
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		const goroutines, per = 4, 4000
		f, _ := New(goroutines*per, 0.01)
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				ks := make([]uint64, per)
				for i := range ks {
					ks[i] = uint64(g*per + i)
				}
				done := 0
				for _, b := range kerneltest.Batches(ks) {
					f.AddUint64sConcurrent(b)
					done += len(b)
					for _, k := range ks[:done] {
						if !f.TestHashConcurrent(engine.HashUint64(k)) {
							t.Errorf("goroutine %d: key %d missing after its add", g, k)
							return
						}
					}
				}
			})
		}
		wg.Wait()
		out := make([]bool, goroutines*per)
		ks := make([]uint64, goroutines*per)
		for i := range ks {
			ks[i] = uint64(i)
		}
		if hits := f.TestUint64s(ks, out); hits != len(ks) {
			t.Fatalf("%d of %d keys after concurrent adds", hits, len(ks))
		}
	})
}
