package interop

import (
	"github.com/syndtr/goleveldb/leveldb/filter"

	"github.com/filterengine/filterengine/classic"
	"github.com/filterengine/filterengine/internal/hashing"
)

// LevelDBFilter is classic's LevelDB filter as goleveldb's filter.Filter,
// for opt.Options.Filter: the value is the bits per key. It writes the
// same bytes as filter.NewBloomFilter(bitsPerKey) under the same name, so
// tables written with either read with the other.
type LevelDBFilter int

var _ filter.Filter = LevelDBFilter(10)

// Name is the name LevelDB records for its built-in Bloom filter.
func (LevelDBFilter) Name() string { return "leveldb.BuiltinBloomFilter" }

// Contains reports whether key may be in the filter.
func (LevelDBFilter) Contains(filter, key []byte) bool { return classic.LevelDBMayMatch(filter, key) }

// NewGenerator returns a generator that keeps one 32-bit hash per key.
func (f LevelDBFilter) NewGenerator() filter.FilterGenerator {
	return &levelDBGenerator{bitsPerKey: int(f)}
}

type levelDBGenerator struct {
	bitsPerKey int
	hashes     []uint32
	buf        []byte
}

func (g *levelDBGenerator) Add(key []byte) { g.hashes = append(g.hashes, hashing.LevelDBHash(key)) }

func (g *levelDBGenerator) Generate(b filter.Buffer) {
	g.buf = classic.AppendLevelDBHashes(g.buf[:0], g.hashes, g.bitsPerKey)
	b.Write(g.buf)
	g.hashes = g.hashes[:0]
}
