package spatial

import (
	"fmt"
	"math/bits"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
)

// MaxAreas is the largest number of areas: labels live in 16-bit cells.
const MaxAreas = 65535

// MaxCells bounds the cell array (2^43 cells, 16 TiB of 16-bit cells) so
// bit and byte sizes never overflow on the way to the storage.
const MaxCells = 1 << 43

// Filter is a spatial Bloom filter: m cells of 4 bits (up to 15 areas),
// 8 bits (up to 255) or 16 bits (up to 65535), each holding 0 or an area
// label. Insert and Check are safe for concurrent use (cells rise by
// compare-and-swap); Merge, UnmarshalBinary and Close are not.
type Filter struct {
	m       uint64
	k       uint32
	areas   int
	cellLog uint // log2 of the cell width in bits: 2, 3 or 4
	seed    uint64
	mask    uint32 // a cell's bits: 0xf, 0xff or 0xffff

	storage *engine.Storage
	cells   []byte   // cellBytes(m, cellLog) bytes of little-endian cells plus asm.SpatialPad
	words   []uint32 // the same memory, for atomic loads and CAS

	// members[a] and selfCollisions[a] count area a's insertions and its
	// probes that found the cell already at a; index 0 is unused.
	members        []atomic.Uint64
	selfCollisions []atomic.Uint64
	collisions     atomic.Uint64
}

// New returns a filter for n keys over the given number of areas whose
// a-priori false-positive rate (a key in no area reported in some area)
// is at most p: m cells and k probes as for a classic Bloom filter with
// m bits, since a cell is non-zero exactly when the bit would be set.
func New(n uint64, areas int, p float64, opts ...engine.Option) (*Filter, error) {
	m, k, err := Size(n, p)
	if err != nil {
		return nil, err
	}
	return NewMK(m, k, areas, opts...)
}

// NewAreas returns a filter sized by SizeAreas for the given number of
// keys per area (counts[i] keys in area i+1).
func NewAreas(counts []uint64, p float64, opts ...engine.Option) (*Filter, error) {
	m, k, err := SizeAreas(counts, p)
	if err != nil {
		return nil, err
	}
	return NewMK(m, k, len(counts), opts...)
}

// NewMK returns a filter of exactly m cells and k probes per key.
func NewMK(m uint64, k uint32, areas int, opts ...engine.Option) (*Filter, error) {
	if err := engine.CheckMK(m, k, engine.MaxK); err != nil {
		return nil, err
	}
	if m > MaxCells {
		return nil, fmt.Errorf("%w: m = %d cells above the maximum %d", engine.ErrParam, m, uint64(MaxCells))
	}
	if areas < 1 || areas > MaxAreas {
		return nil, fmt.Errorf("%w: %d areas outside [1, %d]", engine.ErrParam, areas, MaxAreas)
	}
	cfg := engine.Apply(opts)
	for _, v := range cfg.Family() {
		return nil, engine.UnknownOption("spatial", v)
	}
	return newFilter(m, k, areas, cellLogFor(areas), cfg.Seed, cfg.HugePages)
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
func newFilter(m uint64, k uint32, areas int, cellLog uint, seed uint64, mode engine.HugePageMode) (*Filter, error) {
	nbytes := cellBytes(m, cellLog) + asm.SpatialPad
	s, err := engine.NewStorage((nbytes+7)/8, mode)
	if err != nil {
		return nil, err
	}
	w := s.Words()
	f := &Filter{
		m: m, k: k, areas: areas, cellLog: cellLog, seed: seed, mask: 1<<(1<<cellLog) - 1,
		storage:        s,
		cells:          unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 8*len(w)),
		words:          unsafe.Slice((*uint32)(unsafe.Pointer(&w[0])), 2*len(w)),
		members:        make([]atomic.Uint64, areas+1),
		selfCollisions: make([]atomic.Uint64, areas+1),
	}
	return f, nil
}

// Cells returns m, the number of cells.
func (f *Filter) Cells() uint64 { return f.m }

// K returns the number of probes per key.
func (f *Filter) K() uint32 { return f.k }

// Areas returns the largest area label.
func (f *Filter) Areas() int { return f.areas }

// CellBits returns the width of one cell: 4, 8 or 16 bits, the narrowest
// that holds every label (see New).
func (f *Filter) CellBits() int { return 1 << f.cellLog }

// Seed returns the hash seed.
func (f *Filter) Seed() uint64 { return f.seed }

// Hash returns the hash the filter uses for key.
func (f *Filter) Hash(key []byte) uint64 { return engine.HashSeed(key, f.seed) }

// HugePages reports whether the cells live in huge-page-advised memory.
func (f *Filter) HugePages() bool { return f.storage.HugePages() }

// Close releases the cells at once (mapped memory is otherwise returned
// when the filter becomes garbage). The filter must not be used after.
func (f *Filter) Close() error {
	f.cells, f.words = nil, nil
	return f.storage.Close()
}

func (f *Filter) areaErr(area int) error {
	return fmt.Errorf("%w: area %d outside [1, %d]", engine.ErrParam, area, f.areas)
}

// Insert adds key to area: each of its k cells becomes max(cell, area).
// The result is the filter the papers build by inserting areas in
// ascending order, whatever the order here. Area 0 or above Areas() is an
// error and changes nothing.
func (f *Filter) Insert(key []byte, area int) error { return f.InsertHash(f.Hash(key), area) }

// InsertHash is Insert for a key hashed with Hash.
func (f *Filter) InsertHash(h uint64, area int) error {
	if area < 1 || area > f.areas {
		return f.areaErr(area)
	}
	f.insertHash(h, uint32(area))
	runtime.KeepAlive(f.storage)
	return nil
}

func (f *Filter) insertHash(h uint64, area uint32) {
	coll, self := f.raiseAll(h, area)
	f.count(area, 1, coll, self)
}

// raiseAll raises h's k cells to area and returns how many already held
// a label (collisions) and how many held area itself (self-collisions).
func (f *Filter) raiseAll(h uint64, area uint32) (coll, self uint64) {
	delta := bits.RotateLeft64(h, 32)
	for range f.k {
		old := f.raise(engine.Reduce(h, f.m), area)
		if old != 0 {
			coll++
			if old == area {
				self++
			}
		}
		h += delta
	}
	return coll, self
}

// count adds n members of area and their collisions to the statistics.
func (f *Filter) count(area uint32, n, coll, self uint64) {
	f.members[area].Add(n)
	if coll != 0 {
		f.collisions.Add(coll)
		if self != 0 {
			f.selfCollisions[area].Add(self)
		}
	}
}

// locate returns the 32-bit word holding cell p and the cell's bit offset
// in the word's little-endian value.
func (f *Filter) locate(p uint64) (*uint32, uint) {
	bit := p << f.cellLog
	return &f.words[bit>>5], uint(bit & 31)
}

// cell returns the label in cell p.
func (f *Filter) cell(p uint64) uint32 {
	w, sh := f.locate(p)
	return engine.LoadLE32(w) >> sh & f.mask
}

// raise sets cell p to max(cell, area) with compare-and-swap and returns
// the value it held.
func (f *Filter) raise(p uint64, area uint32) uint32 {
	w, sh := f.locate(p)
	mask := f.mask
	for {
		raw := atomic.LoadUint32(w)
		old := engine.SwapLE32(raw)
		v := old >> sh & mask
		if v >= area {
			return v
		}
		next := engine.SwapLE32(old&^(mask<<sh) | area<<sh)
		if atomic.CompareAndSwapUint32(w, raw, next) {
			return v
		}
	}
}

// Check returns the area key was inserted into: 0 if any of its k cells is
// empty (key in no area, never wrong), else the smallest label among them.
// A key inserted into area a never checks below a; it checks above a when
// all its cells were overwritten by higher areas (the inter-set error).
func (f *Filter) Check(key []byte) int { return f.CheckHash(f.Hash(key)) }

// CheckHash is Check for a key hashed with Hash.
func (f *Filter) CheckHash(h uint64) int {
	delta := bits.RotateLeft64(h, 32)
	m, words, mask, cellLog := f.m, f.words, f.mask, f.cellLog
	least := uint32(MaxAreas)
	for range f.k {
		bit := engine.Reduce(h, m) << cellLog
		least = min(least, engine.LoadLE32(&words[bit>>5])>>(bit&31)&mask)
		if least == 0 {
			break
		}
		h += delta
	}
	runtime.KeepAlive(f.storage)
	return int(least)
}
