package interop

import (
	"github.com/cockroachdb/pebble"

	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/internal/hashing"
)

// PebbleFilterPolicy is blocked's RocksDB legacy filter as Pebble's
// FilterPolicy, for LevelOptions.FilterPolicy: the value is the bits per
// key. It writes the same bytes as bloom.FilterPolicy(bitsPerKey) under the
// same name, so tables written with either read with the other.
type PebbleFilterPolicy int

var _ pebble.FilterPolicy = PebbleFilterPolicy(10)

// Name is the name Pebble and RocksDB record for this filter.
func (PebbleFilterPolicy) Name() string { return "rocksdb.BuiltinBloomFilter" }

// MayContain reports whether key may be in the table filter f (Pebble has
// no other filter type).
func (PebbleFilterPolicy) MayContain(_ pebble.FilterType, f, key []byte) bool {
	return blocked.RocksDBLegacyMayMatch(f, key)
}

// NewWriter returns a writer that keeps one 32-bit hash per key.
func (p PebbleFilterPolicy) NewWriter(pebble.FilterType) pebble.FilterWriter {
	return &pebbleWriter{bitsPerKey: int(p)}
}

type pebbleWriter struct {
	bitsPerKey int
	hashes     []uint32
}

func (w *pebbleWriter) AddKey(key []byte) { w.hashes = append(w.hashes, hashing.RocksDBHash(key)) }

func (w *pebbleWriter) Finish(buf []byte) []byte {
	buf = blocked.AppendRocksDBLegacyHashes(buf, w.hashes, w.bitsPerKey)
	w.hashes = w.hashes[:0]
	return buf
}
