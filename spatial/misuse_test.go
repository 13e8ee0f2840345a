package spatial

import (
	"encoding/binary"
	"io"
	"testing"
	"time"
	"unsafe"

	"github.com/filterengine/filterengine/internal/store"
	"github.com/filterengine/filterengine/internal/testkit/contracttest"
)

// A closed filter is a zero one: every method panics naming New. (Close
// used to keep k and m, so the zero-value guard passed and the methods
// indexed the released cells: index errors.)
func TestClosedFilterIsZero(t *testing.T) {
	f := mustNew(t, 100, 3, 0.01)
	_ = f.Insert([]byte("x"), 2)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	contracttest.Panics(t, "spatial.Filter: zero value, use spatial.New", map[string]func(){
		"Check":         func() { f.Check([]byte("x")) },
		"CheckUint64":   func() { f.CheckUint64(1) },
		"CheckHash":     func() { f.CheckHash(1) },
		"CheckHashes":   func() { f.CheckHashes([]uint64{1}, make([]uint16, 1)) },
		"Insert":        func() { _ = f.Insert([]byte("x"), 1) },
		"InsertHashes":  func() { _ = f.InsertHashes([]uint64{1}, 1) },
		"Stats":         func() { f.Stats() },
		"Clone":         func() { f.Clone() },
		"MarshalBinary": func() { _, _ = f.MarshalBinary() },
		"WriteTo":       func() { _, _ = f.WriteTo(io.Discard) },
	})
	if f.Close() != nil {
		t.Error("a second Close failed")
	}
}

// A line-local filter viewed in place from bytes that are 8-byte but not
// 64-byte aligned answers in batch as one key at a time (the batch check
// demanded 64-byte alignment and panicked; a line only needs 4).
func TestViewLineLocalUnaligned(t *testing.T) {
	f, err := New(1000, 3, 0.01, WithLineLocal())
	if err != nil {
		t.Fatal(err)
	}
	_ = f.Insert([]byte("a"), 2)
	data, _ := f.MarshalBinary()
	buf := make([]byte, len(data)+128)
	off := (64-int(uintptr(unsafe.Pointer(&buf[0]))%64))%64 + 8
	d := buf[off : off+len(data)]
	copy(d, data)
	g, err := View(d)
	if err != nil {
		t.Fatal(err)
	}
	if uintptr(unsafe.Pointer(&g.cells[0]))%64 == 0 {
		t.Skip("the cells were copied, not viewed in place")
	}
	out := make([]uint16, 2)
	g.CheckKeys([][]byte{[]byte("a"), []byte("b")}, out)
	if out[0] != 2 || int(out[0]) != g.Check([]byte("a")) || int(out[1]) != g.Check([]byte("b")) {
		t.Fatalf("batch %v, single %d %d", out, g.Check([]byte("a")), g.Check([]byte("b")))
	}
}

// A sealed line-local file that claims 2^40 members in one area of a
// one-line filter decodes (member counts are the caller's), and its
// statistics come back: the occupancy table stops where the line is full
// instead of growing to 2^41 entries.
func TestStatsHugeMemberCount(t *testing.T) {
	for _, lines := range []uint64{1, 3} {
		f, _ := NewMK(128*lines, 2, 3, WithLineLocal())
		data, _ := f.MarshalBinary()
		h, payload, err := store.DecodeEnvelope(data)
		if err != nil {
			t.Fatal(err)
		}
		payload = append([]byte(nil), payload...)
		binary.LittleEndian.PutUint64(payload[64:], 1<<40) // members of area 1
		forged, err := store.AppendEnvelope(nil, h, payload)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Decode(forged)
		if err != nil {
			t.Fatalf("%d lines: the forged file: %v", lines, err)
		}
		done := make(chan struct{})
		go func() { g.Stats(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%d lines: Stats still running after 5 s", lines)
		}
	}
}
