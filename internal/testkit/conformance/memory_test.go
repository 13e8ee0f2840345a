package conformance_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/classic"
	"github.com/filterengine/filterengine/counting"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/memlimit"
	"github.com/filterengine/filterengine/shifting"
	"github.com/filterengine/filterengine/spatial"
)

// Every constructor asked for more memory than the process may have
// returns an error wrapping engine.ErrMemory instead of ending the process
// with the runtime's fatal out-of-memory. The child has 256 MiB of
// address space left; each filter needs terabytes.
func TestConstructorsOutOfMemory(t *testing.T) {
	if !memlimit.Child(t) {
		return
	}
	memlimit.Limit(t, 256<<20)
	never := engine.WithHugePages(engine.HugePagesNever)
	cases := []struct {
		name string
		make func() (any, error)
	}{
		{"blocked.New(1<<40, 0.01)", func() (any, error) { return blocked.New(1<<40, 0.01) }},
		{"blocked.New never", func() (any, error) { return blocked.New(1<<40, 0.01, never) }},
		{"classic.New(1<<40, 0.01)", func() (any, error) { return classic.New(1<<40, 0.01) }},
		{"classic.New never", func() (any, error) { return classic.New(1<<40, 0.01, never) }},
		{"counting.New(1e11, 0.01)", func() (any, error) { return counting.New(1e11, 0.01) }},
		{"blocked.NewWindow(1e9, 0.01, 64)", func() (any, error) { return blocked.NewWindow(1e9, 0.01, 64) }},
		{"blocked.NewScalable(1<<40, 0.01)", func() (any, error) { return blocked.NewScalable(1<<40, 0.01) }},
		{"blocked.NewNarrow(1<<40, 0.01, 64)", func() (any, error) { return blocked.NewNarrow(1<<40, 0.01, 64) }},
		{"classic.NewDynamic(1<<40, 0.01)", func() (any, error) { return classic.NewDynamic(1<<40, 0.01) }},
		{"classic.NewRetouched(1<<40, 0.01)", func() (any, error) { return classic.NewRetouched(1<<40, 0.01) }},
		{"shifting.New(1000, 1e-300)", func() (any, error) { return shifting.New(1000, 1e-300) }},
		{"shifting.NewAssociation(1<<40, 0.01)", func() (any, error) { return shifting.NewAssociation(1<<40, 0.01) }},
		{"shifting.NewMultiplicity(1<<40, 0.01, 15)", func() (any, error) { return shifting.NewMultiplicity(1<<40, 0.01, 15) }},
		{"spatial.New(2, 3, 1e-30, WithLineLocal)", func() (any, error) { return spatial.New(2, 3, 1e-30, spatial.WithLineLocal()) }},
		{"spatial.New(1<<38, 3, 0.01)", func() (any, error) { return spatial.New(1<<38, 3, 0.01) }},
	}
	for _, c := range cases {
		if _, err := c.make(); !errors.Is(err, engine.ErrMemory) {
			t.Errorf("%s: err %v, want one wrapping engine.ErrMemory", c.name, err)
		}
	}
}

// savedFamily is one family's saved forms, for TestDecodersOutOfMemory.
type savedFamily struct {
	name   string
	make   func() (interface{ MarshalBinary() ([]byte, error) }, error) // at least 32 MiB
	decode func([]byte) error
	open   func(path string, opts ...engine.Option) error
	view   func([]byte) error
}

func errOf[T any](_ T, err error) error { return err }

var savedFamilies = []savedFamily{
	{"blocked",
		func() (interface{ MarshalBinary() ([]byte, error) }, error) { return blocked.NewMK(1<<28, 8) },
		func(b []byte) error { return errOf(blocked.Decode(b)) },
		func(p string, o ...engine.Option) error { return errOf(blocked.Open(p, o...)) },
		func(b []byte) error { return errOf(blocked.View(b)) }},
	{"classic",
		func() (interface{ MarshalBinary() ([]byte, error) }, error) { return classic.NewMK(1<<28, 7) },
		func(b []byte) error { return errOf(classic.Decode(b)) },
		func(p string, o ...engine.Option) error { return errOf(classic.Open(p, o...)) },
		func(b []byte) error { return errOf(classic.View(b)) }},
	{"counting",
		func() (interface{ MarshalBinary() ([]byte, error) }, error) { return counting.NewMK(1<<26, 7) },
		func(b []byte) error { return errOf(counting.Decode(b)) },
		func(p string, o ...engine.Option) error { return errOf(counting.Open(p, o...)) },
		func(b []byte) error { return errOf(counting.View(b)) }},
	{"shifting",
		func() (interface{ MarshalBinary() ([]byte, error) }, error) { return shifting.NewMK(1<<28, 8) },
		func(b []byte) error { return errOf(shifting.Decode(b)) },
		func(p string, o ...engine.Option) error { return errOf(shifting.Open(p, o...)) },
		func(b []byte) error { return errOf(shifting.View(b)) }},
	{"spatial",
		func() (interface{ MarshalBinary() ([]byte, error) }, error) { return spatial.NewMK(1<<26, 7, 3) },
		func(b []byte) error { return errOf(spatial.Decode(b)) },
		func(p string, o ...engine.Option) error { return errOf(spatial.Open(p, o...)) },
		func(b []byte) error { return errOf(spatial.View(b)) }},
}

// A saved filter whose array the process cannot have is an error from
// every family's Decode, Open (with and without the checksum) and
// copying View; for blocked also from ReadFrom and UnmarshalBinary (the
// filter decoded into keeps what it had) and Clone, which panics with the
// error.
func TestDecodersOutOfMemory(t *testing.T) {
	if !memlimit.Child(t) {
		return
	}
	type saved struct {
		data, unaligned []byte
		path            string
	}
	var all []saved
	// The filters stay reachable to the end: a collection that unmapped
	// them under the cap would free the address space the test denies.
	var live []any
	defer func() { runtime.KeepAlive(live) }()
	for _, fam := range savedFamilies {
		f, err := fam.make()
		if err != nil {
			t.Fatalf("%s: %v", fam.name, err)
		}
		live = append(live, f)
		data, err := f.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if len(data) < 32<<20 {
			t.Fatalf("%s: %d bytes, want at least 32 MiB", fam.name, len(data))
		}
		path := filepath.Join(t.TempDir(), fam.name+".flt")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		unaligned := make([]byte, len(data)+1)[1:]
		copy(unaligned, data)
		all = append(all, saved{data, unaligned, path})
	}
	f, err := blocked.NewMK(1<<29, 8) // 64 MiB
	if err != nil {
		t.Fatal(err)
	}
	keys := []uint64{1, 2, 3, 1 << 40}
	f.AddUint64s(keys)
	data, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	g, err := blocked.NewMK(1<<10, 8)
	if err != nil {
		t.Fatal(err)
	}
	g.AddUint64s(keys)
	memlimit.Limit(t, 16<<20)

	expect := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, engine.ErrMemory) {
			t.Errorf("%s: err %v, want one wrapping engine.ErrMemory", what, err)
		}
	}
	for i, fam := range savedFamilies {
		s := all[i]
		expect(fam.name+".Decode", fam.decode(s.data))
		expect(fam.name+".Open", fam.open(s.path))
		expect(fam.name+".Open WithoutChecksum", fam.open(s.path, engine.WithoutChecksum()))
		expect(fam.name+".View of unaligned bytes (a copy)", fam.view(s.unaligned))
	}
	_, err = g.ReadFrom(bytes.NewReader(data))
	expect("ReadFrom", err)
	expect("UnmarshalBinary", g.UnmarshalBinary(data))
	for _, k := range keys {
		if !g.TestUint64(k) {
			t.Fatalf("a failed decode lost key %d", k)
		}
	}
	g.AddUint64(99)
	func() {
		defer func() {
			err, _ := recover().(error)
			expect("Clone's panic", err)
		}()
		f.Clone()
		t.Error("Clone of 64 MiB returned under a 16 MiB cap")
	}()
}

// A growth step the system refuses leaves the filter as it was: Scalable
// keeps adding to its newest stage, Dynamic to its full row, and every
// key added stays present.
func TestGrowthOutOfMemory(t *testing.T) {
	if !memlimit.Child(t) {
		return
	}
	keys := make([]uint64, 1000)
	for i := range keys {
		keys[i] = uint64(i) * 0x9e3779b97f4a7c15
	}
	// A Dynamic row of 64 MiB holding 1000 keys; a Scalable whose first
	// stage of 1e7 keys takes 12 MiB, its second more than 32 MiB.
	d, err := classic.NewDynamicMK(uint64(len(keys)), 1<<29, 7)
	if err != nil {
		t.Fatal(err)
	}
	d.AddUint64s(keys)
	s, err := blocked.NewScalable(1e7, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	fill := make([]uint64, 1e6)
	for i := uint64(0); s.Added() < 1e7; i++ {
		for j := range fill {
			fill[j] = i<<32 | uint64(j)
		}
		s.AddUint64s(fill)
	}
	stages := s.Stages()
	memlimit.Limit(t, 24<<20)

	more := make([]uint64, len(keys))
	for i := range more {
		more[i] = ^keys[i]
	}
	d.AddUint64s(more[:500])
	for _, k := range more[500:] {
		d.AddUint64(k)
	}
	if d.Rows() != 1 || d.Added() != 2000 {
		t.Errorf("Dynamic: %d rows, count %d; want 1 row (the second refused), 2000", d.Rows(), d.Added())
	}
	s.AddUint64s(more[:500])
	for _, k := range more[500:] {
		s.AddUint64(k)
	}
	if s.Stages() != stages {
		t.Errorf("Scalable: %d stages, want %d (the next refused)", s.Stages(), stages)
	}
	for _, k := range append(keys, more...) {
		if !d.TestUint64(k) {
			t.Fatalf("Dynamic lost key %d", k)
		}
	}
	for _, k := range more {
		if !s.TestUint64(k) {
			t.Fatalf("Scalable lost key %d", k)
		}
	}
}
