package shifting

import (
	"runtime"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/store"
)

// Open returns the ShBF_M filter saved in the file at path, mapped
// copy-on-write and used in place (store.Open: the checks, the cost, the
// one case that can fault); writes never reach the file. Close unmaps it.
func Open(path string, opts ...engine.Option) (*Filter, error) {
	return store.Open(path, opts, (*Filter).decodeSource)
}

// View returns the ShBF_M filter encoded in data, in place when its
// payload is 8-byte aligned, else copied (store.ViewEnvelope).
func View(data []byte, opts ...engine.Option) (*Filter, error) {
	return store.View(data, opts, (*Filter).decodeSource)
}

// WriteFile saves the filter to path atomically (store.WriteFile). The
// concurrent forms may run meanwhile: every key whose add returned before
// the save began is in the file (store.WordsPart).
func (f *Filter) WriteFile(path string) error {
	err := store.WriteFile(path, f.header(), store.WordsPart(f.bits()))
	runtime.KeepAlive(f.st)
	return err
}

// OpenAssociation is Open for an ShBF_A file.
func OpenAssociation(path string, opts ...engine.Option) (*Association, error) {
	return store.Open(path, opts, (*Association).decodeSource)
}

// ViewAssociation is View for ShBF_A bytes.
func ViewAssociation(data []byte, opts ...engine.Option) (*Association, error) {
	return store.View(data, opts, (*Association).decodeSource)
}

// WriteFile saves the filter to path atomically (store.WriteFile).
func (a *Association) WriteFile(path string) error {
	err := store.WriteFile(path, a.header(), store.WordsPart(a.bits()))
	runtime.KeepAlive(a.st)
	return err
}

// OpenMultiplicity is Open for an ShBF_x file; its bit array is used in
// place, its counters (if any) are copied.
func OpenMultiplicity(path string, opts ...engine.Option) (*Multiplicity, error) {
	return store.Open(path, opts, (*Multiplicity).decodeSource)
}

// ViewMultiplicity is View for ShBF_x bytes.
func ViewMultiplicity(data []byte, opts ...engine.Option) (*Multiplicity, error) {
	return store.View(data, opts, (*Multiplicity).decodeSource)
}

// WriteFile saves the filter to path atomically (store.WriteFile).
func (x *Multiplicity) WriteFile(path string) error {
	err := store.WriteFile(path, x.header(), store.WordsPart(x.bits()), store.BytesPart(x.counts))
	runtime.KeepAlive(x.st)
	return err
}
