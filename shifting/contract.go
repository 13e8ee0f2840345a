package shifting

import (
	"fmt"
	"io"
	"math/bits"
	"runtime"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/batch"
	"github.com/filterengine/filterengine/internal/store"
)

// The family contract of engine's package doc for the three types: zero
// values, Decode and Read, the text form, Clone, String and the key forms.

// bits returns f's array; on a zero Filter it panics naming New. The
// panics are out-of-line calls, so bits inlines into the probe loops.
func (f *Filter) bits() []uint64 {
	if f.st == nil {
		zeroFilter()
	}
	return f.st.Words()
}

// bits returns a's array; on a zero Association it panics naming
// NewAssociation.
func (a *Association) bits() []uint64 {
	if a.st == nil {
		zeroAssociation()
	}
	return a.st.Words()
}

// bits returns x's array; on a zero Multiplicity it panics naming
// NewMultiplicity.
func (x *Multiplicity) bits() []uint64 {
	if x.st == nil {
		zeroMultiplicity()
	}
	return x.st.Words()
}

//go:noinline
func zeroFilter() { batch.Zero("shifting.Filter", "shifting.New") }

//go:noinline
func zeroAssociation() { batch.Zero("shifting.Association", "shifting.NewAssociation") }

//go:noinline
func zeroMultiplicity() { batch.Zero("shifting.Multiplicity", "shifting.NewMultiplicity") }

// cloneStorage returns a copy of words in new storage (heap or huge pages
// by the automatic rule; heap memory when huge pages are refused).
func cloneStorage(words []uint64) *store.Storage {
	st, err := store.NewStorage(uint64(len(words)), engine.HugePagesAuto)
	if err != nil {
		panic(err) // memory refused: an error wrapping engine.ErrMemory
	}
	copy(st.Words(), words)
	return st
}

// decodeWith adapts a type's decodeMode to store.Decode and store.Read:
// the header fixes the geometry, so only the storage options apply.
func decodeWith[T any](decodeMode func(*T, store.Header, store.Source, engine.HugePageMode) error) func(*T, store.Header, []byte, []engine.Option) error {
	return func(t *T, h store.Header, payload []byte, opts []engine.Option) error {
		cfg, err := plainConfig("shifting", opts)
		if err != nil {
			return err
		}
		return decodeMode(t, h, store.CopySource(payload), cfg.HugePages)
	}
}

// Decode returns the ShBF_M filter encoded in data (MarshalBinary's
// bytes); opts choose its storage (engine.WithHugePages).
func Decode(data []byte, opts ...engine.Option) (*Filter, error) {
	return store.Decode(data, opts, decodeWith((*Filter).decodeMode))
}

// Read reads one ShBF_M filter from r (WriteTo's bytes); opts choose its
// storage.
func Read(r io.Reader, opts ...engine.Option) (*Filter, error) {
	return store.Read(r, opts, decodeWith((*Filter).decodeMode))
}

// DecodeAssociation is Decode for ShBF_A bytes.
func DecodeAssociation(data []byte, opts ...engine.Option) (*Association, error) {
	return store.Decode(data, opts, decodeWith((*Association).decodeMode))
}

// ReadAssociation is Read for an ShBF_A stream.
func ReadAssociation(r io.Reader, opts ...engine.Option) (*Association, error) {
	return store.Read(r, opts, decodeWith((*Association).decodeMode))
}

// DecodeMultiplicity is Decode for ShBF_x bytes.
func DecodeMultiplicity(data []byte, opts ...engine.Option) (*Multiplicity, error) {
	return store.Decode(data, opts, decodeWith((*Multiplicity).decodeMode))
}

// ReadMultiplicity is Read for an ShBF_x stream.
func ReadMultiplicity(r io.Reader, opts ...engine.Option) (*Multiplicity, error) {
	return store.Read(r, opts, decodeWith((*Multiplicity).decodeMode))
}

// MarshalText is MarshalBinary in standard base64 (store.MarshalText),
// so that encoding/json and other text formats carry f as one string.
func (f *Filter) MarshalText() ([]byte, error) { return store.MarshalText(f.MarshalBinary()) }

// UnmarshalText replaces f with the filter of MarshalText's form.
func (f *Filter) UnmarshalText(text []byte) error {
	return store.UnmarshalText(text, f.UnmarshalBinary)
}

// MarshalText is MarshalBinary in standard base64.
func (a *Association) MarshalText() ([]byte, error) { return store.MarshalText(a.MarshalBinary()) }

// UnmarshalText replaces a with the filter of MarshalText's form.
func (a *Association) UnmarshalText(text []byte) error {
	return store.UnmarshalText(text, a.UnmarshalBinary)
}

// MarshalText is MarshalBinary in standard base64.
func (x *Multiplicity) MarshalText() ([]byte, error) { return store.MarshalText(x.MarshalBinary()) }

// UnmarshalText replaces x with the filter of MarshalText's form.
func (x *Multiplicity) UnmarshalText(text []byte) error {
	return store.UnmarshalText(text, x.UnmarshalBinary)
}

// Clone returns an independent copy of f.
func (f *Filter) Clone() *Filter {
	g := *f
	g.setStorage(cloneStorage(f.bits()))
	runtime.KeepAlive(f.st)
	return &g
}

// Clone returns an independent copy of a.
func (a *Association) Clone() *Association {
	c := *a
	c.st = cloneStorage(a.bits())
	runtime.KeepAlive(a.st)
	return &c
}

// Clone returns an independent copy of x, counters included.
func (x *Multiplicity) Clone() *Multiplicity {
	c := *x
	c.st = cloneStorage(x.bits())
	runtime.KeepAlive(x.st)
	if x.counts != nil {
		c.counts = append([]uint8(nil), x.counts...)
	}
	return &c
}

// PopCount returns the number of set bits of the first array.
func (f *Filter) PopCount() uint64 {
	n := 0
	for _, w := range f.bits()[:f.p.Base2] {
		n += bits.OnesCount64(w)
	}
	runtime.KeepAlive(f.st)
	return uint64(n)
}

// EstimatedCount estimates the distinct keys added from the set bits of
// the first array (Swamidass & Baldi, every key setting k bits):
// -(m/k) ln(1 - X/m). +Inf when every bit is set.
func (f *Filter) EstimatedCount() float64 { return engine.EstimateCount(f.p.M, f.p.K, f.PopCount()) }

// String describes f in one line, never its bits.
func (f *Filter) String() string {
	if f.st == nil {
		return "shifting.Filter{zero, use shifting.New}"
	}
	return fmt.Sprintf("shifting.Filter{m: %d, k: %d, second array: %d, seed: %#x, bytes: %d, estimated keys: %.0f}",
		f.p.M, f.p.K, f.p.M2, f.p.Seed, f.SizeBytes(), f.EstimatedCount())
}

// String describes a in one line, never its bits.
func (a *Association) String() string {
	if a.st == nil {
		return "shifting.Association{zero, use shifting.NewAssociation}"
	}
	return fmt.Sprintf("shifting.Association{m: %d, k: %d, seed: %#x, bytes: %d}", a.m, a.k, a.seed, a.SizeBytes())
}

// String describes x in one line, never its bits.
func (x *Multiplicity) String() string {
	if x.st == nil {
		return "shifting.Multiplicity{zero, use shifting.NewMultiplicity}"
	}
	return fmt.Sprintf("shifting.Multiplicity{m: %d, k: %d, max count: %d, counters: %t, seed: %#x, bytes: %d}",
		x.m, x.k, x.maxCount, x.counts != nil, x.seed, x.SizeBytes())
}

// AddString is Add of the bytes of s, without copying them.
func (a *Association) AddString(s string, sets Sets) error {
	return a.AddHash(engine.HashStringSeed(s, a.seed), sets)
}

// AddUint64 is Add of the 8 little-endian bytes of k.
func (a *Association) AddUint64(k uint64, sets Sets) error {
	return a.AddHash(engine.HashUint64Seed(k, a.seed), sets)
}

// QueryString is Query of the bytes of s, without copying them.
func (a *Association) QueryString(s string) Answer {
	return a.QueryHash(engine.HashStringSeed(s, a.seed))
}

// QueryUint64 is Query of the 8 little-endian bytes of k.
func (a *Association) QueryUint64(k uint64) Answer {
	return a.QueryHash(engine.HashUint64Seed(k, a.seed))
}

// AddString is Add of the bytes of s, without copying them.
func (x *Multiplicity) AddString(s string, count uint32) error {
	return x.AddHash(engine.HashStringSeed(s, x.seed), count)
}

// AddUint64 is Add of the 8 little-endian bytes of k.
func (x *Multiplicity) AddUint64(k uint64, count uint32) error {
	return x.AddHash(engine.HashUint64Seed(k, x.seed), count)
}

// CountString is Count of the bytes of s, without copying them.
func (x *Multiplicity) CountString(s string) uint32 {
	return x.CountHash(engine.HashStringSeed(s, x.seed))
}

// CountUint64 is Count of the 8 little-endian bytes of k.
func (x *Multiplicity) CountUint64(k uint64) uint32 {
	return x.CountHash(engine.HashUint64Seed(k, x.seed))
}

// UpdateString is Update of the bytes of s, without copying them.
func (x *Multiplicity) UpdateString(s string, from, to uint32) error {
	return x.UpdateHash(engine.HashStringSeed(s, x.seed), from, to)
}

// UpdateUint64 is Update of the 8 little-endian bytes of k.
func (x *Multiplicity) UpdateUint64(k uint64, from, to uint32) error {
	return x.UpdateHash(engine.HashUint64Seed(k, x.seed), from, to)
}

var _ engine.Filter = (*Filter)(nil)

// Reset clears every bit, keeping m, k, the seed and the array (the
// padding words past m stay zero, as they are).
func (f *Filter) Reset() {
	clear(f.bits())
	runtime.KeepAlive(f.st)
}
