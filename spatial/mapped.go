package spatial

import (
	"runtime"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/store"
)

// Open returns the filter saved in the file at path, its cells mapped
// copy-on-write and used in place (store.Open: the checks, the cost,
// the one case that can fault); Insert raises cells in private copies of
// their pages and never reaches the file. The statistics are read into
// memory. Close unmaps the file.
func Open(path string, opts ...engine.Option) (*Filter, error) {
	return store.Open(path, opts, (*Filter).decodeSource)
}

// View returns the filter encoded in data, its cells in place when they
// are 8-byte aligned, else copied (store.ViewEnvelope).
func View(data []byte, opts ...engine.Option) (*Filter, error) {
	return store.View(data, opts, (*Filter).decodeSource)
}

// WriteFile saves the filter to path atomically (store.WriteFile). Like
// MarshalBinary it must not overlap Insert: the statistics and the cells
// are saved as one state.
func (f *Filter) WriteFile(path string) error {
	f.mustHaveCells()
	parts := f.payloadParts()
	n := uint64(len(parts[0])) / 8 // the cells, padded to whole words
	err := store.WriteFile(path, f.header(), store.WordsPart(f.storage.Words()[:n]), store.BytesPart(parts[1]))
	runtime.KeepAlive(f.storage)
	return err
}
