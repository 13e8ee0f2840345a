package counting

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/filetest"
)

func TestOpenViewWriteFile(t *testing.T) {
	widths(t, func(t *testing.T, bits int) {
		filetest.RunMembership(t, func(n uint64) (*Filter, error) { return New(n, 0.01, WithCounterBits(bits)) }, Open, View)
	})
}

func TestWriteFileConcurrent(t *testing.T) {
	filetest.RunConcurrentSave(t, filetest.Concurrent[*Filter]{
		New:       func(n uint64) (*Filter, error) { return New(n, 0.01) },
		AddKey:    (*Filter).AddConcurrent,
		WriteFile: (*Filter).WriteFile,
		Open:      Open,
		Test:      (*Filter).Test,
		Close:     (*Filter).Close,
	})
}

// TestOpenRemove removes every key from an opened filter, from two
// goroutines at once (RemoveConcurrent): the counters of the mapping fall to zero while the
// file keeps every key.
func TestOpenRemove(t *testing.T) {
	keys := filetest.Keys(4, 2000)
	f := mustNew(t, uint64(len(keys)), 0.01)
	f.AddKeys(keys)
	path := filepath.Join(t.TempDir(), "c.fe")
	if err := f.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	saved, _ := os.ReadFile(path)
	g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	for half := range 2 {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := half; i < len(keys); i += 2 {
				if !g.RemoveConcurrent(keys[i]) {
					t.Errorf("key %d: Remove from the opened filter failed", i)
				}
			}
		}()
	}
	<-done
	<-done
	if nz := g.Nonzero(); nz != 0 {
		t.Errorf("%d counters nonzero after removing every key", nz)
	}
	if onDisk, _ := os.ReadFile(path); !bytes.Equal(onDisk, saved) {
		t.Fatal("removes on the opened filter changed the file")
	}
	_ = g.Close()
}

func TestOpenGoldens(t *testing.T) {
	filetest.RunGoldens(t, "testdata/counting*.golden", Open, func(d []byte) (*Filter, error) { return Decode(d) })
}
