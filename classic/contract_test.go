package classic

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/testkit/contracttest"
)

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
	if _, err := Decode(data, config.FamilyOption(struct{}{})); !errors.Is(err, engine.ErrParam) {
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
