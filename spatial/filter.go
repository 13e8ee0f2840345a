package spatial

import (
	"math/bits"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/batch"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/hashing"
	"github.com/filterengine/filterengine/internal/store"
)

// MaxAreas is the largest number of areas: labels live in 16-bit cells.
const MaxAreas = 65535

// MaxCells bounds the cell array (2^43 cells, 16 TiB of 16-bit cells) so
// bit and byte sizes never overflow on the way to the storage.
const MaxCells = 1 << 43

// Filter is a spatial Bloom filter: m cells of 4 bits (up to 15 areas),
// 8 bits (up to 255) or 16 bits (up to 65535), each holding 0 or an area
// label. Insert and Check are safe for concurrent use (cells rise by
// compare-and-swap); Union, UnmarshalBinary and Close are not. The zero
// Filter has no cells: its accessors report zeros, Close does nothing and
// every other method panics with a message naming New.
type Filter struct {
	// p holds m, k, the cell width's log2 cellLog (2, 3 or 4), the seed,
	// lines (0: libSBF's layout; else m = lines *
	// asm.SpatialLineCells(cellLog), see WithLineLocal) and words, the
	// cells as 32-bit words for atomic loads and CAS, for the single-key
	// kernels.
	p     asm.SpatialProbe
	areas int
	mask  uint32 // a cell's bits: 0xf, 0xff or 0xffff

	storage *store.Storage
	cells   []byte // cellBytes(m, cellLog) bytes of little-endian cells plus cellPad, the memory of p.Words

	// counts[a] holds area a's insertions, their probes that found a
	// label (collisions) and those that found a itself (self-collisions).
	counts counters
}

// New returns a filter for n keys over the given number of areas whose
// a-priori false-positive rate (a key in no area reported in some area)
// is at most p: m cells and k probes as for a classic Bloom filter with
// m bits, since a cell is non-zero exactly when the bit would be set.
//
// With WithLineLocal the cells and probes come from the line-local
// layout's own model instead: the fewest whole lines, over every k, for
// which that model's rate after n keys is at most p.
func New(n uint64, areas int, p float64, opts ...engine.Option) (*Filter, error) {
	size := func() (uint64, uint32, error) { return sizeFor(n, p) }
	if _, line, _ := applyOptions(opts); line {
		size = func() (uint64, uint32, error) { return sizeForLineLocal(n, areas, p) }
	}
	m, k, err := size()
	if err != nil {
		return nil, err
	}
	return NewMK(m, k, areas, opts...)
}

// NewAreas returns a filter for the given number of keys per area
// (counts[i] keys in area i+1) with the fewest cells for which every
// area's a-priori false-positive rate (a key in no area reported as that
// area) and a-priori inter-set error (a key of the area reported in a
// higher one) are at most p, by the model of the layout WithLineLocal
// chooses. That needs fewer cells than New for the sum of the counts,
// which bounds the sum of the areas' rates.
func NewAreas(counts []uint64, p float64, opts ...engine.Option) (*Filter, error) {
	size := sizeForAreas
	if _, line, _ := applyOptions(opts); line {
		size = sizeForAreasLineLocal
	}
	m, k, err := size(counts, p)
	if err != nil {
		return nil, err
	}
	return NewMK(m, k, len(counts), opts...)
}

// NewMK returns a filter of exactly m cells and k probes per key.
// With WithLineLocal, m is rounded up to whole lines.
func NewMK(m uint64, k uint32, areas int, opts ...engine.Option) (*Filter, error) {
	if err := errs.CheckMK(m, k, engine.MaxK); err != nil {
		return nil, err
	}
	if m > MaxCells {
		return nil, errs.ParamErrorf("m = %d cells above the maximum %d", m, uint64(MaxCells))
	}
	if areas < 1 || areas > MaxAreas {
		return nil, errs.ParamErrorf("%d areas outside [1, %d]", areas, MaxAreas)
	}
	cfg, lineLocal, err := applyOptions(opts)
	if err != nil {
		return nil, err
	}
	cellLog := cellLogFor(areas)
	var lines uint64
	if lineLocal {
		c := asm.SpatialLineCells(cellLog)
		lines = (m + c - 1) / c
		m = lines * c
	}
	return newFilter(m, k, areas, cellLog, lines, cfg.Seed, cfg.HugePages)
}

// lineLocal is the family option of WithLineLocal.
type lineLocal struct{}

// WithLineLocal selects the line-local layout: a key's k cells share one
// 64-byte line (see the package documentation). New and NewAreas size it
// by its own model; the default is libSBF's layout.
func WithLineLocal() engine.Option { return config.FamilyOption(lineLocal{}) }

// applyOptions applies opts and reports whether they ask for the line-local
// layout; any other family option is an error.
func applyOptions(opts []engine.Option) (config.Config, bool, error) {
	cfg := config.Apply(opts)
	line := false
	for _, v := range cfg.Family() {
		if _, ok := v.(lineLocal); !ok {
			return cfg, false, config.UnknownOption("spatial", v)
		}
		line = true
	}
	return cfg, line, nil
}

// cellLogFor is log2 of the narrowest cell width, in bits, that holds
// every label of an area count: 4 bits up to 15 areas, 8 up to 255, 16
// up to 65535.
func cellLogFor(areas int) uint {
	switch {
	case areas <= 15:
		return 2
	case areas <= 255:
		return 3
	}
	return 4
}

// cellBytes is the size of m packed cells of 1 << cellLog bits (m <=
// MaxCells): an odd count of 4-bit cells leaves the last byte's high
// nibble unused.
func cellBytes(m uint64, cellLog uint) uint64 { return (m<<cellLog + 7) >> 3 }

// newFilter allocates the cells; cellLog is cellLogFor(areas) except in
// tests that compare widths on one workload.
// lines is 0 for libSBF's layout, else m / asm.SpatialLineCells(cellLog).
func newFilter(m uint64, k uint32, areas int, cellLog uint, lines, seed uint64, mode engine.HugePageMode) (*Filter, error) {
	s, err := store.NewStorage(cellWords(m, cellLog), mode)
	if err != nil {
		return nil, err
	}
	return filterOn(s, m, k, areas, cellLog, lines, seed), nil
}

// cellPad is the padding past the last cell that every probe's 4-byte
// load needs: asm's check kernels read a cell as the 4 bytes from the
// byte holding its first bit (asm.SpatialCheckHashes).
const cellPad = 4

// cellWords is the words of m cells of 1 << cellLog bits plus cellPad.
func cellWords(m uint64, cellLog uint) uint64 {
	return (cellBytes(m, cellLog) + cellPad + 7) / 8
}

// filterOn returns a filter whose cells are the words of s.
func filterOn(s *store.Storage, m uint64, k uint32, areas int, cellLog uint, lines, seed uint64) *Filter {
	w := s.Words()
	f := &Filter{
		p:       asm.NewSpatialProbe(unsafe.Slice((*uint32)(unsafe.Pointer(&w[0])), 2*len(w)), m, lines, k, cellLog, seed),
		areas:   areas,
		mask:    1<<(1<<cellLog) - 1,
		storage: s,
		cells:   unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 8*len(w)),
		counts:  newCounters(areas),
	}
	return f
}

// M returns m, the number of cells.
func (f *Filter) M() uint64 { return f.p.M }

// SizeBytes is the memory of the cells, padding included.
func (f *Filter) SizeBytes() uint64 { return uint64(len(f.cells)) }

// K returns the number of probes per key.
func (f *Filter) K() uint32 { return f.p.K }

// Areas returns the largest area label.
func (f *Filter) Areas() int { return f.areas }

// CellBits returns the width of one cell: 4, 8 or 16 bits, the narrowest
// that holds every label (see New).
func (f *Filter) CellBits() int { return 1 << f.p.CellLog }

// LineLocal reports whether the filter uses the line-local layout
// (WithLineLocal).
func (f *Filter) LineLocal() bool { return f.p.Lines != 0 }

// Seed returns the hash seed.
func (f *Filter) Seed() uint64 { return f.p.Seed }

// hash returns the hash the filter uses for key.
func (f *Filter) hash(key []byte) uint64 { return engine.HashSeed(key, f.p.Seed) }

// HugePages reports whether the cells live in huge-page-advised memory.
func (f *Filter) HugePages() bool { return f.storage != nil && f.storage.HugePages() }

// Close releases the cells at once (mapped memory is otherwise returned
// when the filter becomes garbage). The filter must not be used after.
func (f *Filter) Close() error {
	if f.storage == nil { // the zero Filter: nothing to release
		return nil
	}
	// A closed filter is a zero one: its methods panic naming New
	// instead of indexing the released cells.
	st := f.storage
	*f = Filter{}
	return st.Close()
}

// mustHaveCells panics with the family's zero-value message on the zero
// Filter, which has no cells: one compare inline, the panic out of line.
func (f *Filter) mustHaveCells() {
	if f.p.K == 0 {
		zeroFilter()
	}
}

//go:noinline
func zeroFilter() { batch.Zero("spatial.Filter", "spatial.New") }

// checkArea returns the error of an area outside [1, Areas()], after the
// zero Filter's panic; inlined, with the error built out of line.
func (f *Filter) checkArea(area int) error {
	if f.p.K == 0 || area < 1 || area > f.areas {
		return f.areaErr(area)
	}
	return nil
}

func (f *Filter) areaErr(area int) error {
	f.mustHaveCells()
	return errs.ParamErrorf("area %d outside [1, %d]", area, f.areas)
}

// Insert adds key to area: each of its k cells becomes max(cell, area).
// The result is the filter the papers build by inserting areas in
// ascending order, whatever the order here. Area 0 or above Areas() is an
// error and changes nothing.
func (f *Filter) Insert(key []byte, area int) error { return f.InsertHash(f.hash(key), area) }

// InsertUint64 is Insert for the 8 little-endian bytes of key.
func (f *Filter) InsertUint64(key uint64, area int) error {
	return f.InsertHash(engine.HashUint64Seed(key, f.p.Seed), area)
}

// InsertString is Insert for the bytes of key, without copying them.
func (f *Filter) InsertString(key string, area int) error {
	return f.InsertHash(engine.HashStringSeed(key, f.p.Seed), area)
}

// InsertHash is Insert for a key hashed with Hash.
func (f *Filter) InsertHash(h uint64, area int) error {
	if err := f.checkArea(area); err != nil {
		return err
	}
	f.insertHash(h, uint32(area))
	runtime.KeepAlive(f.storage)
	return nil
}

func (f *Filter) insertHash(h uint64, area uint32) {
	coll, self := f.raiseAll(h, area)
	f.counts.add(area, 1, coll, self)
}

// probes writes h's k cell indices into ps[:k].
func (f *Filter) probes(h uint64, ps *[engine.MaxK]uint64) []uint64 {
	p := ps[:f.p.K]
	if f.p.Lines != 0 {
		asm.SpatialLineProbes(h, f.p.Lines, f.p.K, f.p.CellLog, p)
		return p
	}
	delta := bits.RotateLeft64(h, 32)
	for i := range p {
		p[i] = hashing.Reduce(h, f.p.M)
		h += delta
	}
	return p
}

// raiseAll raises h's k cells to area and returns how many already held
// a label (collisions) and how many held area itself (self-collisions).
// It loads every probed word before the first compare-and-swap, so the
// k cache misses overlap instead of each waiting for the locked
// instruction before it; each CAS then reloads its word (an L1 hit) so
// that probes sharing a word do not fail on a stale value, and only cells
// below area take a CAS.
func (f *Filter) raiseAll(h uint64, area uint32) (coll, self uint64) {
	var ps [engine.MaxK]uint64
	p := f.probes(h, &ps)
	for _, q := range p {
		w, _ := f.locate(q)
		atomic.LoadUint32(w) // kept: an atomic load is never dropped
	}
	for _, q := range p {
		w, _ := f.locate(q)
		old := f.raise(q, area, atomic.LoadUint32(w))
		if old != 0 {
			coll++
			if old == area {
				self++
			}
		}
	}
	return coll, self
}

// locate returns the 32-bit word holding cell p and the cell's bit offset
// in the word's little-endian value.
func (f *Filter) locate(p uint64) (*uint32, uint) {
	bit := p << f.p.CellLog
	return &f.p.Words[bit>>5], uint(bit & 31)
}

// cell returns the label in cell p.
func (f *Filter) cell(p uint64) uint32 {
	w, sh := f.locate(p)
	return store.LoadLE32(w) >> sh & f.mask
}

// raise sets cell p to max(cell, area) with compare-and-swap and returns
// the value it held; raw is a recent atomic load of the cell's word.
func (f *Filter) raise(p uint64, area, raw uint32) uint32 {
	w, sh := f.locate(p)
	mask := f.mask
	for {
		old := store.SwapLE32(raw)
		v := old >> sh & mask
		if v >= area {
			return v
		}
		next := store.SwapLE32(old&^(mask<<sh) | area<<sh)
		if atomic.CompareAndSwapUint32(w, raw, next) {
			return v
		}
		raw = atomic.LoadUint32(w)
	}
}

// Check returns the area key was inserted into: 0 if any of its k cells is
// empty (key in no area, never wrong), else the smallest label among them.
// A key inserted into area a never checks below a; it checks above a when
// all its cells were overwritten by higher areas (the inter-set error).
//
// It is one call, inlined into the caller, to asm's single-key kernel
// (asm.SpatialCheckKey), which reads the filter through &f.p and so
// keeps f and its cells alive.
func (f *Filter) Check(key []byte) int { return int(asm.SpatialCheckKey(&f.p, key)) }

// CheckUint64 is Check for the 8 little-endian bytes of key.
func (f *Filter) CheckUint64(key uint64) int { return int(asm.SpatialCheckUint64(&f.p, key)) }

// CheckString is Check for the bytes of key, without copying them.
func (f *Filter) CheckString(key string) int {
	return f.CheckHash(engine.HashStringSeed(key, f.p.Seed))
}

// CheckHash is Check for a key hashed with Hash. Each layout and cell
// width runs its own probe loop (asm.SpatialCheck, asm.SpatialLineCheck).
func (f *Filter) CheckHash(h uint64) int {
	f.mustHaveCells()
	var v uint32
	if f.p.Lines != 0 {
		v = asm.SpatialLineCheck(&f.p.Words[0], f.p.Lines, f.p.K, f.p.CellLog, h)
	} else {
		v = asm.SpatialCheck(&f.p.Words[0], f.p.M, f.p.K, f.p.CellLog, h)
	}
	runtime.KeepAlive(f.storage)
	return int(v)
}
