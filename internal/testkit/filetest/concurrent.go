package filetest

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/filterengine/filterengine/engine"
)

// Concurrent is what RunConcurrentSave needs of a family with concurrent
// writers.
type Concurrent[F any] struct {
	New       func(n uint64) (F, error)
	AddKey    func(f F, key []byte) // the concurrent add
	WriteFile func(f F, path string) error
	Open      func(path string, opts ...engine.Option) (F, error)
	Test      func(f F, key []byte) bool
	Close     func(f F) error
}

// RunConcurrentSave saves a filter with WriteFile while goroutines add
// keys with the concurrent form (race-free under -race), then opens the
// file and requires every key added before the save began, and checks
// that a save after the writers finished holds every key.
func RunConcurrentSave[F any](t *testing.T, c Concurrent[F]) {
	before, during := Keys(11, 4000), Keys(12, 4000)
	f, err := c.New(uint64(len(before) + len(during)))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range before {
		c.AddKey(f, k)
	}
	dir := t.TempDir()
	mid, end := filepath.Join(dir, "mid.fe"), filepath.Join(dir, "end.fe")
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Go(func() {
			for i := g; i < len(during); i += 2 {
				c.AddKey(f, during[i])
			}
		})
	}
	if err := c.WriteFile(f, mid); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if err := c.WriteFile(f, end); err != nil {
		t.Fatal(err)
	}
	for path, keys := range map[string][][]byte{mid: before, end: append(before, during...)} {
		g, err := c.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range keys {
			if !c.Test(g, k) {
				t.Fatalf("%s: key %d added before the save is absent", filepath.Base(path), i)
			}
		}
		if err := c.Close(g); err != nil {
			t.Fatal(err)
		}
	}
}
