package clickhouse

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// bfHashSeeds are the seeds of the bloom_filter index's k bits per value
// (BloomFilterHash::bf_hash_seed in ClickHouse's BloomFilterHash.h).
var bfHashSeeds = [15]uint64{
	13635471485423070496, 10336109063487487899, 17779957404565211594, 8988612159822229247, 4954614162757618085,
	12980113590177089081, 9263883436177860930, 3656772712723269762, 10362091744962961274, 7582936617938287249,
	15033938188484401405, 18286745649494826751, 6852245486148412312, 8886056245089344681, 10151472371158292780,
}

// ErrEmptyGranule is returned by MarshalBinary for a granule no row was
// added to: ClickHouse never writes one.
var ErrEmptyGranule = errors.New("clickhouse: empty granule")

// Granule is one index granule: one filter per index column.
//
// For tokenbf_v1 and ngrambf_v1 every filter has the index's SizeBytes and
// Add* sets bits at once. For bloom_filter a granule being built keeps each
// column's distinct value hashes, because the filters' size depends on the
// largest count of them; the filters are sized and filled when the granule
// is marshalled or queried. A granule read by ReadGranules has its filters
// as stored; adding to it sets bits in those filters. Adding text keeps
// scratch memory per column: a few tens of KiB, and for ngrambf_v1 with
// n <= 3 a set of the n-grams added (256 KiB for n = 3) once 16384 of them
// went through.
//
// A Granule is not safe for concurrent use when one of the goroutines adds;
// concurrent MayContain* calls on a granule no goroutine adds to are safe
// for text indexes and for granules read from a file; call MarshalBinary or
// Total once before sharing a built bloom_filter granule.
//
// Column arguments must be in [0, Columns()); others panic like an
// out-of-range slice index.
type Granule struct {
	ix      *Index
	filters []*BloomFilter
	rows    []int // Add* calls per column; bloom_filter needs it for empty arrays
	added   bool
	texts   []textBatch // per column: the text indexes' scratch

	// bloom_filter
	total  uint64
	sets   []hashSet // nil for a granule read from a file
	stale  bool      // sets changed since filters were built
	arrays []bool    // column had an array row
}

// NewGranule returns an empty granule of an index over columns columns
// (columns < 1 is taken as 1).
func (ix *Index) NewGranule(columns int) *Granule {
	if columns < 1 {
		columns = 1
	}
	g := &Granule{ix: ix, filters: make([]*BloomFilter, columns), rows: make([]int, columns)}
	if ix.kind == BloomFilterIndex {
		g.sets = make([]hashSet, columns)
		g.arrays = make([]bool, columns)
		return g
	}
	for i := range g.filters {
		g.filters[i] = newFilter(ix.sizeBytes, ix.hashes, ix.seed)
	}
	return g
}

// Index is the granule's index.
func (g *Granule) Index() *Index { return g.ix }

// Columns is the number of index columns.
func (g *Granule) Columns() int { return len(g.filters) }

// Filter returns column col's filter (nil for a bloom_filter granule with no
// value yet). It is the granule's own filter, not a copy.
func (g *Granule) Filter(col int) *BloomFilter {
	g.build()
	return g.filters[col]
}

// Total is the count a bloom_filter granule stores in front of its filters:
// the largest number of distinct value hashes among its columns. It is 0
// for the text indexes.
func (g *Granule) Total() uint64 {
	g.build()
	return g.total
}

// AddString adds one String value of column col: its tokens (tokenbf_v1),
// its n-grams (ngrambf_v1) or its CityHash64 (bloom_filter). For an
// Array(String) column, add each element, or call AddStrings with the row's
// elements.
func (g *Granule) AddString(col int, s []byte) {
	g.rows[col]++
	g.added = true
	switch g.ix.kind {
	case TokenBF, NgramBF:
		t := g.textBatch(col)
		t.add(s)
		t.flush()
	default:
		g.addHash(col, CityHash64(s))
	}
}

// AddStrings adds many String values of column col at once: the rows of a
// String column, or the elements of one Array(String) row. For bloom_filter,
// a granule whose array column got only empty arrays holds hash 0 for it,
// as ClickHouse's does (call AddStrings(col, nil) for an empty array row).
func (g *Granule) AddStrings(col int, values [][]byte) {
	g.rows[col]++
	g.added = true
	switch g.ix.kind {
	case TokenBF, NgramBF:
		t := g.textBatch(col)
		for _, s := range values {
			t.add(s)
		}
		t.flush()
	default:
		g.arrays[col] = true
		if g.sets != nil {
			g.sets[col].reserve(len(values))
		}
		for _, s := range values {
			g.addHash(col, CityHash64(s))
		}
	}
}

// textBatch returns column col's text batch, ready to add to its filter.
func (g *Granule) textBatch(col int) *textBatch {
	if g.texts == nil {
		g.texts = make([]textBatch, len(g.filters))
	}
	t := &g.texts[col]
	t.reset(g.filters[col], g.ix.kind, g.ix.n)
	return t
}

// AddUint64 adds a UInt64 value (bloom_filter only; the text indexes index
// strings and ignore it).
func (g *Granule) AddUint64(col int, v uint64) { g.addValue(col, IntHash64(v)) }

// AddUint32 adds a UInt32 (or DateTime, IPv4) value.
func (g *Granule) AddUint32(col int, v uint32) { g.addValue(col, IntHash64(uint64(v))) }

// AddUint16 adds a UInt16 (or Date) value.
func (g *Granule) AddUint16(col int, v uint16) { g.addValue(col, IntHash64(uint64(v))) }

// AddUint8 adds a UInt8 (or Bool) value.
func (g *Granule) AddUint8(col int, v uint8) { g.addValue(col, IntHash64(uint64(v))) }

// AddInt64 adds an Int64 value.
func (g *Granule) AddInt64(col int, v int64) { g.addValue(col, IntHash64(uint64(v))) }

// AddInt32 adds an Int32 (or Date32) value: its 4 bytes, zero-extended.
func (g *Granule) AddInt32(col int, v int32) { g.addValue(col, IntHash64(uint64(uint32(v)))) }

// AddInt16 adds an Int16 (or Enum16) value, zero-extended.
func (g *Granule) AddInt16(col int, v int16) { g.addValue(col, IntHash64(uint64(uint16(v)))) }

// AddInt8 adds an Int8 (or Enum8) value, zero-extended.
func (g *Granule) AddInt8(col int, v int8) { g.addValue(col, IntHash64(uint64(uint8(v)))) }

// AddFloat64 adds a Float64 value, hashed by its bits: -0.0 and 0.0 are
// different values to the index, and so are NaNs with different bits.
func (g *Granule) AddFloat64(col int, v float64) { g.addValue(col, IntHash64(math.Float64bits(v))) }

// AddFloat32 adds a Float32 value, widened to Float64 first as ClickHouse
// does.
func (g *Granule) AddFloat32(col int, v float32) { g.AddFloat64(col, float64(v)) }

// AddUint128 adds a 128-bit value (UInt128, Int128) given as its low and
// high 64-bit halves: hashed as IntHash64(lo ^ hi).
func (g *Granule) AddUint128(col int, lo, hi uint64) { g.addValue(col, IntHash64(lo^hi)) }

// AddUint64s adds many UInt64 values of column col at once.
func (g *Granule) AddUint64s(col int, vs []uint64) {
	g.rows[col]++
	g.added = true
	if g.ix.kind != BloomFilterIndex {
		return
	}
	if g.sets == nil {
		for _, v := range vs {
			g.setBits(col, IntHash64(v))
		}
		return
	}
	set := &g.sets[col]
	set.reserve(len(vs))
	for _, v := range vs {
		set.add(IntHash64(v))
	}
	g.stale = true
}

// AddHash adds a value by its 64-bit bloom_filter hash (what HashString,
// HashUint64 and the others return), for types without an Add method.
func (g *Granule) AddHash(col int, h uint64) { g.addValue(col, h) }

func (g *Granule) addValue(col int, h uint64) {
	g.rows[col]++
	g.added = true
	if g.ix.kind == BloomFilterIndex {
		g.addHash(col, h)
	}
}

func (g *Granule) addHash(col int, h uint64) {
	if g.sets == nil {
		g.setBits(col, h)
		return
	}
	g.sets[col].add(h)
	g.stale = true
}

func (g *Granule) setBits(col int, h uint64) {
	f := g.filters[col]
	if f == nil {
		return
	}
	for _, s := range bfHashSeeds[:g.ix.k] {
		f.AddHashWithSeed(h, s)
	}
}

// build sizes and fills a built bloom_filter granule's filters.
func (g *Granule) build() {
	if g.sets == nil || !g.stale && g.filters[0] != nil {
		return
	}
	g.stale = false
	var total int
	for col := range g.sets {
		set := &g.sets[col]
		if set.len() == 0 && g.arrays[col] {
			set.add(0)
		}
		total = max(total, set.len())
	}
	g.total = uint64(total)
	if total == 0 {
		return
	}
	size := (g.ix.bitsRow*total + 7) / 8
	for col := range g.sets {
		f := newFilter(size, uint64(g.ix.k), 0)
		g.sets[col].setBits(f, bfHashSeeds[:g.ix.k])
		g.filters[col] = f
	}
}

// MarshalBinary returns the granule as ClickHouse writes it in the
// uncompressed stream of skp_idx_<name>.idx: for the text indexes each
// column's filter, SizeBytes bytes each; for bloom_filter VarUInt(total)
// then each column's filter of (bits·total + 7)/8 bytes.
func (g *Granule) MarshalBinary() ([]byte, error) {
	return g.AppendBinary(nil)
}

// AppendBinary appends what MarshalBinary returns to dst.
func (g *Granule) AppendBinary(dst []byte) ([]byte, error) {
	g.build()
	if !g.added && (g.ix.kind != BloomFilterIndex || g.total == 0) {
		return dst, ErrEmptyGranule
	}
	if g.ix.kind == BloomFilterIndex {
		if g.total == 0 {
			return dst, ErrEmptyGranule
		}
		dst = binary.AppendUvarint(dst, g.total)
	}
	for _, f := range g.filters {
		dst = f.appendBytes(dst)
	}
	return dst, nil
}

func (g *Granule) String() string {
	return fmt.Sprintf("%v granule, %d columns", g.ix, len(g.filters))
}
