package counting

import (
	"runtime"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/store"
)

// Open returns the filter saved in the file at path, mapped copy-on-write
// and used in place (store.Open: the checks, the cost, the one case that
// can fault). Add and Remove, plain or Concurrent, update the mapping as
// they update memory; the pages they touch become private copies and the
// file never changes. Close unmaps it.
func Open(path string, opts ...engine.Option) (*Filter, error) {
	return store.Open(path, opts, (*Filter).decodeSource)
}

// View returns the filter encoded in data, in place when its payload is
// 8-byte aligned, else copied (store.ViewEnvelope).
func View(data []byte, opts ...engine.Option) (*Filter, error) {
	return store.View(data, opts, (*Filter).decodeSource)
}

// WriteFile saves the filter to path atomically (store.WriteFile), each
// word read atomically, so adds and removes may run meanwhile: every key
// added (and not removed) before the save began is in the file, and an
// update during it may be in it in part.
func (f *Filter) WriteFile(path string) error {
	f.mustHaveLines()
	err := store.WriteFile(path, f.header(), store.WordsPart(f.words))
	runtime.KeepAlive(f.storage)
	return err
}
