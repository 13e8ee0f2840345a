package blocked

import (
	"runtime"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/store"
)

// Open returns the filter saved in the file at path (WriteFile, WriteTo
// or MarshalBinary's bytes) without reading it into memory: the file is
// mapped copy-on-write and its words are used in place (store.Open), so
// Open costs a few system calls plus, unless engine.WithoutChecksum is
// given, one checksum pass over the file. Writes to the filter go to
// private copies of the pages they touch and never reach the file. A
// truncated, corrupted or foreign file is an error here; a file another
// process truncates while it is open can fault (store.OpenEnvelope).
// Close unmaps the file.
func Open(path string, opts ...engine.Option) (*Filter, error) {
	return store.Open(path, opts, (*Filter).decodeSource)
}

// View returns the filter encoded in data, using data's words in place
// when the payload is 8-byte aligned and copying them otherwise
// (store.ViewEnvelope says what a caller's bytes must allow).
func View(data []byte, opts ...engine.Option) (*Filter, error) {
	return store.View(data, opts, (*Filter).decodeSource)
}

// decodeSource is decode for Open and View.
func (f *Filter) decodeSource(h store.Header, src store.Source) error {
	return f.decode(h, src, engine.HugePagesAuto)
}

// WriteFile saves the filter to path atomically (store.WriteFile): path
// holds the old file or the new one, whole, whatever happens during the
// save. AddConcurrent and AddHashConcurrent may run meanwhile: every key
// whose add returned before the save began is in the file, one added
// during it may be there in part (store.WordsPart). Plain writers must
// not overlap it.
func (f *Filter) WriteFile(path string) error {
	if f.p.Lines == 0 {
		return errZeroEncode
	}
	err := store.WriteFile(path, f.header(), store.WordsPart(f.p.Words))
	runtime.KeepAlive(f.storage)
	return err
}
