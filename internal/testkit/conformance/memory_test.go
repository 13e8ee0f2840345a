package conformance_test

import (
	"errors"
	"os"
	"path/filepath"
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

// A saved filter whose array the process cannot have is an error from
// Decode, Read, UnmarshalBinary, Open and a copying View; Clone panics
// with the error; a filter decoded into keeps what it had.
func TestDecodersOutOfMemory(t *testing.T) {
	if !memlimit.Child(t) {
		return
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
	path := filepath.Join(t.TempDir(), "f.flt")
	if err := f.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	g, err := blocked.NewMK(1<<10, 8)
	if err != nil {
		t.Fatal(err)
	}
	g.AddUint64s(keys)
	unaligned := make([]byte, len(data)+1)[1:]
	copy(unaligned, data)
	memlimit.Limit(t, 32<<20)

	expect := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, engine.ErrMemory) {
			t.Errorf("%s: err %v, want one wrapping engine.ErrMemory", what, err)
		}
	}
	_, err = blocked.Decode(data)
	expect("Decode", err)
	_, err = blocked.Open(path)
	expect("Open", err)
	_, err = blocked.Open(path, engine.WithoutChecksum())
	expect("Open WithoutChecksum", err)
	_, err = blocked.View(unaligned)
	expect("View of unaligned bytes (a copy)", err)
	r, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.ReadFrom(r)
	r.Close()
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
		t.Error("Clone of 64 MiB returned under a 32 MiB cap")
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
