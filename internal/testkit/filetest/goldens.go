package filetest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/filterengine/filterengine/engine"
)

// Saved is what RunGoldens needs of a filter.
type Saved interface {
	MarshalBinary() ([]byte, error)
	Close() error
}

// RunGoldens opens every file matching glob (the family's golden files,
// old format versions included) and requires the filter Decode gives:
// the same MarshalBinary bytes.
func RunGoldens[F Saved](t *testing.T, glob string, open func(string, ...engine.Option) (F, error), decode func([]byte) (F, error)) {
	paths, err := filepath.Glob(glob)
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden files match %s (%v)", glob, err)
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := decode(data)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		opened, err := open(path)
		if err != nil {
			t.Fatalf("%s: Open: %v", path, err)
		}
		a, _ := dec.MarshalBinary()
		b, _ := opened.MarshalBinary()
		if !bytes.Equal(a, b) {
			t.Errorf("%s: the opened filter differs from the decoded one", path)
		}
		_ = opened.Close()
	}
}
