package interop

import (
	"github.com/syndtr/goleveldb/leveldb/filter"

	"github.com/filterengine/filterengine/formats/leveldb"
)

// LevelDBFilter is formats/leveldb's LevelDB filter as goleveldb's
// filter.Filter, for opt.Options.Filter: the value is the bits per key. It
// writes the same bytes as filter.NewBloomFilter(bitsPerKey) under the
// same name, so tables written with either read with the other. Where
// leveldb.AppendHashes refuses the budget (a negative value, or more than
// leveldb.MaxBits for the block's keys, where goleveldb's size wraps),
// Generate writes a filter that matches every key (k = 31, reserved): the
// table reads correctly, unfiltered.
type LevelDBFilter int

var _ filter.Filter = LevelDBFilter(10)

// Name is the name LevelDB records for its built-in Bloom filter.
func (LevelDBFilter) Name() string { return "leveldb.BuiltinBloomFilter" }

// Contains reports whether key may be in the filter.
func (LevelDBFilter) Contains(filter, key []byte) bool { return leveldb.MayMatch(filter, key) }

// NewGenerator returns a generator that keeps one 32-bit hash per key.
func (f LevelDBFilter) NewGenerator() filter.FilterGenerator {
	return &levelDBGenerator{bitsPerKey: int(f)}
}

type levelDBGenerator struct {
	bitsPerKey int
	hashes     []uint32
	buf        []byte
}

func (g *levelDBGenerator) Add(key []byte) { g.hashes = append(g.hashes, leveldb.Hash(key)) }

// matchAllLevelDB is a LevelDB filter whose k byte is reserved: every key
// may match.
var matchAllLevelDB = []byte{0, 31}

func (g *levelDBGenerator) Generate(b filter.Buffer) {
	var err error
	g.buf, err = leveldb.AppendHashes(g.buf[:0], g.hashes, g.bitsPerKey)
	if err != nil {
		g.buf = append(g.buf[:0], matchAllLevelDB...)
	}
	b.Write(g.buf)
	g.hashes = g.hashes[:0]
}
