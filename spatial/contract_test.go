package spatial

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/contracttest"
)

// The zero Filter has no cells: every method that answers for keys,
// changes them or encodes them panics with the family's message naming
// New; its accessors report zeros and Close is a no-op.
func TestZeroFilter(t *testing.T) {
	var f Filter
	g := mustNew(t, 100, 3, 0.01)
	out := make([]uint16, 2)
	hs, keys, ks := []uint64{1, 2}, [][]byte{{1}, {2}}, []uint64{1, 2}
	calls := map[string]func(){
		"Insert": func() { _ = f.Insert([]byte("x"), 1) }, "InsertHash": func() { _ = f.InsertHash(1, 1) },
		"InsertUint64": func() { _ = f.InsertUint64(1, 1) }, "InsertString": func() { _ = f.InsertString("x", 1) },
		"InsertHashes": func() { _ = f.InsertHashes(hs, 1) }, "InsertKeys": func() { _ = f.InsertKeys(keys, 1) },
		"InsertUint64s": func() { _ = f.InsertUint64s(ks, 1) }, "InsertHashes(nil)": func() { _ = f.InsertHashes(nil, 1) },
		"Check": func() { f.Check([]byte("x")) }, "CheckHash": func() { f.CheckHash(1) },
		"CheckUint64": func() { f.CheckUint64(1) }, "CheckString": func() { f.CheckString("x") },
		"CheckHashes": func() { f.CheckHashes(hs, out) }, "CheckKeys": func() { f.CheckKeys(keys, out) },
		"CheckUint64s": func() { f.CheckUint64s(ks, out) }, "CheckHashes(nil)": func() { f.CheckHashes(nil, nil) },
		"MarshalBinary": func() { _, _ = f.MarshalBinary() }, "MarshalText": func() { _, _ = f.MarshalText() },
		"WriteTo": func() { _, _ = f.WriteTo(io.Discard) }, "WriteFile": func() { _ = f.WriteFile(t.TempDir() + "/f") },
		"Clone": func() { f.Clone() }, "ModelFPR": func() { f.ModelFPR(10) }, "Stats": func() { f.Stats() },
		"Union": func() { _ = f.Union(g) }, "Union(zero)": func() { _ = g.Union(&f) },
	}
	contracttest.Panics(t, "spatial.Filter: zero value, use spatial.New", calls)
	if f.M() != 0 || f.K() != 0 || f.SizeBytes() != 0 || f.Areas() != 0 || f.HugePages() || f.Close() != nil || len(f.String()) > 200 {
		t.Errorf("the zero Filter's accessors: M %d, K %d, SizeBytes %d, String %q", f.M(), f.K(), f.SizeBytes(), f.String())
	}
}

// A short out slice panics with internal/batch's one message.
func TestShortOut(t *testing.T) {
	f := mustNew(t, 100, 3, 0.01)
	out := make([]uint16, 2)
	contracttest.Panics(t, "spatial: out has 2 elements for 3 keys", map[string]func(){
		"CheckHashes":  func() { f.CheckHashes(make([]uint64, 3), out) },
		"CheckKeys":    func() { f.CheckKeys(make([][]byte, 3), out) },
		"CheckUint64s": func() { f.CheckUint64s(make([]uint64, 3), out) },
	})
}

// A struct holding a filter round-trips through encoding/json (the
// MarshalText form) and encoding/gob (the binary form); Read, Decode (with
// their storage option) and Clone give the same cells and statistics.
func TestTextJSONGobReadDecodeClone(t *testing.T) {
	for _, opts := range [][]engine.Option{nil, {WithLineLocal()}} {
		f, err := New(3000, 20, 0.01, append(opts, engine.WithSeed(9))...)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3000 {
			_ = f.InsertUint64(uint64(i), 1+i%20)
		}
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
		want := f.Stats()
		for name, g := range map[string]*Filter{"json": fromJSON, "gob": fromGob, "Read": read, "Decode": dec, "Clone": f.Clone()} {
			if !slices.Equal(g.p.Words, f.p.Words) || g.p.K != f.p.K || g.p.Seed != 9 || g.p.Lines != f.p.Lines {
				t.Fatalf("%s: the cells changed", name)
			}
			if s := g.Stats(); s.Members != want.Members || s.Collisions != want.Collisions || s.Area[4].SelfCollisions != want.Area[4].SelfCollisions {
				t.Fatalf("%s: the statistics changed", name)
			}
		}
		if read.HugePages() {
			t.Error("Read with HugePagesNever gave huge pages")
		}
		if err := new(Filter).UnmarshalText([]byte("not base64!")); !errors.Is(err, engine.ErrFormat) {
			t.Errorf("UnmarshalText of bad text: %v", err)
		}
	}
}

// A clone is independent: inserts into either leave the other as it was.
func TestCloneIndependent(t *testing.T) {
	f := mustNew(t, 1000, 3, 0.01)
	_ = f.InsertString("a", 1)
	g := f.Clone()
	_ = g.InsertString("b", 2)
	_ = f.InsertString("c", 3)
	if g.CheckString("b") != 2 || g.CheckString("a") != 1 || g.CheckString("c") == 3 && f.CheckString("b") == 2 {
		t.Fatal("clone shares cells with its source")
	}
	if f.Stats().Members != 2 || g.Stats().Members != 2 {
		t.Fatalf("members: source %d, clone %d, want 2 and 2", f.Stats().Members, g.Stats().Members)
	}
}
