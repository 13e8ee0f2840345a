package counting

import (
	"runtime"

	"github.com/filterengine/filterengine/engine"
)

// Open returns the filter saved in the file at path, mapped copy-on-write
// and used in place (engine.Open: the checks, the cost, the one case that
// can fault). Add and Remove, plain or Concurrent, update the mapping as
// they update memory; the pages they touch become private copies and the
// file never changes. Close unmaps it.
func Open(path string, opts ...engine.Option) (*Filter, error) {
	return engine.Open(path, opts, (*Filter).decodeSource)
}

// View returns the filter encoded in data, in place when its payload is
// 8-byte aligned, else copied (engine.ViewEnvelope).
func View(data []byte, opts ...engine.Option) (*Filter, error) {
	return engine.View(data, opts, (*Filter).decodeSource)
}

// WriteFile saves the filter to path atomically (engine.WriteFile), each
// word read atomically, so adds and removes may run meanwhile: every key
// added (and not removed) before the save began is in the file, and an
// update during it may be in it in part.
func (f *Filter) WriteFile(path string) error {
	f.mustHaveLines()
	err := engine.WriteFile(path, f.header(), engine.WordsPart(f.words))
	runtime.KeepAlive(f.storage)
	return err
}
