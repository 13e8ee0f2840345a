package engine

import (
	"encoding"
	"io"
)

// Filter is the surface every membership family shares (classic, blocked,
// counting, shifting ShBF_M). The batch forms answer exactly what the
// single-key forms answer; TestUint64s(ks) answers what Test answers for
// the 8 little-endian bytes of each key. Batch tests write out[i] for every
// key and return the number of hits; out must be at least as long as the
// keys.
type Filter interface {
	Add(key []byte)
	Test(key []byte) bool
	AddHash(h uint64)
	TestHash(h uint64) bool
	AddHashes(hs []uint64)
	TestHashes(hs []uint64, out []bool) int
	AddKeys(keys [][]byte)
	TestKeys(keys [][]byte, out []bool) int
	AddUint64s(ks []uint64)
	TestUint64s(ks []uint64, out []bool) int

	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
	io.WriterTo
	io.ReaderFrom
}
