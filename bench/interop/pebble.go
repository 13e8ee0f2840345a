package interop

import (
	"github.com/cockroachdb/pebble"

	"github.com/filterengine/filterengine/formats/leveldb"
)

// PebbleFilterPolicy is formats/leveldb's RocksDB legacy filter as
// Pebble's FilterPolicy, for LevelOptions.FilterPolicy: the value is the
// bits per key. It writes the same bytes as bloom.FilterPolicy(bitsPerKey)
// under the same name, so tables written with either read with the other.
// Where leveldb.AppendRocksDBHashes refuses the budget (a negative value,
// or more than leveldb.MaxBits for the table's keys, where Pebble's own
// writer panics or wraps), Finish writes a filter that matches every key
// (k = 0): the table reads correctly, unfiltered.
type PebbleFilterPolicy int

var _ pebble.FilterPolicy = PebbleFilterPolicy(10)

// Name is the name Pebble and RocksDB record for this filter.
func (PebbleFilterPolicy) Name() string { return "rocksdb.BuiltinBloomFilter" }

// MayContain reports whether key may be in the table filter f (Pebble has
// no other filter type).
func (PebbleFilterPolicy) MayContain(_ pebble.FilterType, f, key []byte) bool {
	return leveldb.RocksDBMayMatch(f, key)
}

// NewWriter returns a writer that keeps one 32-bit hash per key.
func (p PebbleFilterPolicy) NewWriter(pebble.FilterType) pebble.FilterWriter {
	return &pebbleWriter{bitsPerKey: int(p)}
}

type pebbleWriter struct {
	bitsPerKey int
	hashes     []uint32
}

func (w *pebbleWriter) AddKey(key []byte) { w.hashes = append(w.hashes, leveldb.RocksDBHash(key)) }

// matchAllRocksDB is a legacy filter of one zero line with k = 0: every
// key may match.
var matchAllRocksDB = append(make([]byte, 64), 0, 1, 0, 0, 0)

func (w *pebbleWriter) Finish(buf []byte) []byte {
	out, err := leveldb.AppendRocksDBHashes(buf, w.hashes, w.bitsPerKey)
	if err != nil {
		out = append(buf, matchAllRocksDB...)
	}
	w.hashes = w.hashes[:0]
	return out
}
