package hadoop

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/filterengine/filterengine/engine"
)

// FuzzReadWrite feeds arbitrary bytes to all four decoders. Each must
// return an ErrFormat error or a filter; a filter must write a stream that
// reads back to the same bytes (writing is canonical, so a stream with a
// non-canonical NaN or stray bits past vectorSize may change once, never
// twice), and must answer, add and clear without panicking.
func FuzzReadWrite(f *testing.F) {
	for _, dir := range []string{"bloom", "counting", "dynamic", "retouched", "ops", "legacy"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.bin"))
		for _, name := range files {
			if b, err := os.ReadFile(name); err == nil && len(b) <= 8192 {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for class, read := range readers {
			got, err := read(bytes.NewReader(data))
			if err != nil {
				if !errors.Is(err, engine.ErrFormat) {
					t.Fatalf("%s: error %v does not wrap ErrFormat", class, err)
				}
				continue
			}
			w1 := written(t, got)
			again, err := read(bytes.NewReader(w1))
			if err != nil {
				t.Fatalf("%s: its own output does not read: %v", class, err)
			}
			if w2 := written(t, again); !bytes.Equal(w1, w2) {
				t.Fatalf("%s: write, read, write changed %d bytes to %d", class, len(w1), len(w2))
			}
			exercise(t, got)
		}
	})
}

// exercise tests, adds and clears a few keys on a decoded filter; a filter
// read from hostile bytes may have any nbHash, so only small ones run.
func exercise(t *testing.T, f io.WriterTo) {
	keys := [][]byte{{0x01}, {0xff, 0x80}, []byte("hadoop"), nil}
	g := f.(interface {
		tester
		Add([]byte) error
		NbHash() int
	})
	if g.NbHash() > 64 {
		return
	}
	g.TestKeys(keys, make([]bool, len(keys)))
	if err := g.Add(keys[2]); err != nil {
		t.Fatalf("Add: %v", err)
	}
	if !g.Test(keys[2]) {
		t.Fatal("false negative after Add")
	}
	switch f := f.(type) {
	case *CountingBloomFilter:
		if err := f.Delete(keys[2]); err != nil {
			t.Fatalf("Delete after Add: %v", err)
		}
	case *RetouchedBloomFilter:
		f.SetRandomSeed(1)
		for s := RemoveRandom; s <= RemoveRatio; s++ {
			if _, err := f.SelectiveClearing(keys[2], s); err != nil && !errors.Is(err, engine.ErrParam) {
				t.Fatalf("SelectiveClearing: %v", err)
			}
		}
	}
}
