package parquet

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"testing"

	"github.com/filterengine/filterengine/engine"
)

// header returns the canonical BloomFilterHeader for numBytes.
func header(numBytes int32) []byte { return appendHeader(nil, numBytes) }

// allocated returns the bytes the heap handed out while f ran.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Read keeps its doc's promise: a header that claims more bytes than the
// stream holds costs at most 64 KiB or twice the delivered bytes,
// whichever is more. The stream delivers the header, 16 MiB + 1 bytes of
// a claimed 128 MiB, then EOF; the reader is not an io.ByteReader, so
// nothing but Read itself allocates.
func TestReadAllocatesAtMostTwiceDelivered(t *testing.T) {
	for _, delivered := range []int{100, 64 << 10, 64<<10 + 1, 1 << 20, 16<<20 + 1} {
		data := append(header(MaxBytes), make([]byte, delivered)...)
		var err error
		got := allocated(func() { _, err = Read(io.MultiReader(bytes.NewReader(data))) })
		if !errors.Is(err, engine.ErrFormat) {
			t.Fatalf("%d of %d bytes: %v, want ErrFormat", delivered, MaxBytes, err)
		}
		// The allowance: the doc's bound, and 16 KiB for the reader's own
		// small objects (the header reader, the error).
		limit := uint64(max(64<<10, 2*delivered)) + 16<<10
		t.Logf("%d bytes delivered: %d allocated (limit %d)", delivered, got, limit)
		if got > limit {
			t.Errorf("%d bytes delivered of %d claimed: %d bytes allocated, more than %d", delivered, MaxBytes, got, limit)
		}
	}
}

// A whole filter read costs its bitset twice at most: the bytes as they
// arrive and the filter's words.
func TestReadAllocatesTwiceTheFilter(t *testing.T) {
	f, _ := New(16 << 20)
	f.AddString("x")
	data, _ := f.MarshalBinary()
	var g *Filter
	var err error
	got := allocated(func() { g, err = Read(io.MultiReader(bytes.NewReader(data))) })
	if err != nil || !g.Equal(f) {
		t.Fatalf("Read: %v", err)
	}
	if limit := uint64(2*f.NumBytes()) + 16<<10; got > limit {
		t.Errorf("reading a %d-byte filter allocated %d bytes, more than %d", f.NumBytes(), got, limit)
	}
}

// Decode copies the bitset once: a filter costs its size, not twice it.
func TestDecodeAllocatesTheFilterOnce(t *testing.T) {
	f, _ := New(16 << 20)
	f.AddString("x")
	data, _ := f.MarshalBinary()
	var g *Filter
	var err error
	got := allocated(func() { g, err = Decode(data) })
	if err != nil || !g.Equal(f) {
		t.Fatalf("Decode: %v", err)
	}
	if limit := uint64(f.NumBytes()) + 16<<10; got > limit {
		t.Errorf("decoding a %d-byte filter allocated %d bytes, more than %d", f.NumBytes(), got, limit)
	}
}
