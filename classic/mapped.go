package classic

import (
	"runtime"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/store"
)

// Open returns the filter saved in the file at path, mapped copy-on-write
// and used in place (store.Open: the checks, the cost, the one case that
// can fault); writes never reach the file. Close unmaps it.
func Open(path string, opts ...engine.Option) (*Filter, error) {
	return store.Open(path, opts, (*Filter).decodeSource)
}

// View returns the filter encoded in data, in place when its payload is
// 8-byte aligned, else copied (store.ViewEnvelope).
func View(data []byte, opts ...engine.Option) (*Filter, error) {
	return store.View(data, opts, (*Filter).decodeSource)
}

// WriteFile saves the filter to path atomically (store.WriteFile).
// AddConcurrent may run meanwhile: every key whose add returned before
// the save began is in the file (store.WordsPart).
func (f *Filter) WriteFile(path string) error {
	err := store.WriteFile(path, f.header(), store.WordsPart(f.words()))
	runtime.KeepAlive(f.st)
	return err
}
