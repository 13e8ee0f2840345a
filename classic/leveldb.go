package classic

import (
	"encoding/binary"
	"unsafe"

	"github.com/filterengine/filterengine/internal/hashing"
)

// LevelDB's built-in Bloom filter (util/bloom.cc; seeds 001 and 003), the
// filter goleveldb's filter.NewBloomFilter writes and reads:
//
//	filter = bits[nBytes] || k
//
// nBytes = ceil(max(n*bitsPerKey, 64) / 8) for n keys, nBits = 8*nBytes, and
// k = hashing.LevelDBK(bitsPerKey) (floor(0.69*bitsPerKey) in [1, 30]). A key
// with h = hashing.LevelDBHash(key) sets or tests bits h, h+d, ..., h+(k-1)d
// (mod 2^32), each taken mod nBits, where d = h rotated right by 17; bit i
// is bit i%8 of byte i/8. This is a standard Bloom filter, so its model
// false-positive rate is engine.FPR(nBits, n, k): 0.84% at 10 bits per key
// (k = 6), 0.046% at 16 (k = 11).
//
// Both directions compute h % nBits without a division: the constant of
// hashing.FastMod32 is derived once per filter (per call for
// LevelDBMayMatch, off the hash's critical path), then each probe costs
// two multiplications.

// levelDBBitsPerKey sanitizes a bits-per-key argument: below 0 it is 0
// (LevelDB then writes its 64-bit minimum filter, k = 1, as for 0), above
// hashing.LevelDBMaxBitsPerKey it is that cap.
func levelDBBitsPerKey(bitsPerKey int) int {
	return min(max(bitsPerKey, 0), hashing.LevelDBMaxBitsPerKey)
}

// AppendLevelDB appends to dst the LevelDB Bloom filter of keys, exactly
// the bytes LevelDB's CreateFilter (and goleveldb's filter generator)
// appends for bitsPerKey in [0, 100]. A bitsPerKey below 0 counts as 0 and
// one above 100 as 100 (RocksDB's cap; goleveldb has none and writes larger
// filters there), so a bad argument neither panics nor allocates more than
// 13 bytes per key. Duplicate keys are kept, as LevelDB keeps them: they
// count towards the size. Filters of 2^32 bits or more (above 43 million
// keys at 100 bits per key) follow C++ LevelDB, whose positions h % nBits
// then never pass 2^32; goleveldb truncates their size to 32 bits.
func AppendLevelDB(dst []byte, keys [][]byte, bitsPerKey int) []byte {
	dst, w := appendLevelDB(dst, len(keys), bitsPerKey)
	// Hash a chunk of keys, then set their bits: each pass is a loop of
	// independent work, which runs faster than alternating the two.
	var hs [levelDBChunk]uint32
	for len(keys) > 0 {
		chunk := keys[:min(len(keys), len(hs))]
		for i, key := range chunk {
			hs[i] = hashing.LevelDBHash(key)
		}
		w.setAll(hs[:len(chunk)])
		keys = keys[len(chunk):]
	}
	return dst
}

// levelDBChunk is how many keys AppendLevelDB hashes before it sets their
// bits (1 KiB of hashes on the stack).
const levelDBChunk = 256

// AppendLevelDBHashes is AppendLevelDB for keys already hashed with
// hashing.LevelDBHash, the form a table writer that keeps one hash per key
// (as goleveldb's generator does) calls.
func AppendLevelDBHashes(dst []byte, hashes []uint32, bitsPerKey int) []byte {
	dst, w := appendLevelDB(dst, len(hashes), bitsPerKey)
	w.setAll(hashes)
	return dst
}

// levelDBWriter is a filter being written: its bits, their count, the
// remainder constant of nBits and the probe count.
type levelDBWriter struct {
	bits  unsafe.Pointer
	nBits uint64
	magic uint64
	k     int
	huge  bool // nBits >= 2^32: positions are h itself
}

// appendLevelDB appends the zeroed filter for n keys and its k byte.
func appendLevelDB(dst []byte, n, bitsPerKey int) ([]byte, levelDBWriter) {
	bitsPerKey = levelDBBitsPerKey(bitsPerKey)
	nBytes := (max(n*bitsPerKey, 64) + 7) / 8
	k := hashing.LevelDBK(bitsPerKey)
	start := len(dst)
	dst = append(dst, make([]byte, nBytes+1)...)
	dst[start+nBytes] = byte(k)
	nBits := 8 * uint64(nBytes)
	w := levelDBWriter{bits: unsafe.Pointer(&dst[start]), nBits: nBits, k: k, huge: nBits >= 1<<32}
	if !w.huge {
		w.magic = hashing.DivMagic32(uint32(nBits))
	}
	return dst, w
}

// setAll sets the k bits of each hash.
func (w *levelDBWriter) setAll(hashes []uint32) {
	if w.huge {
		for _, h := range hashes {
			w.setHuge(h)
		}
		return
	}
	bits, nBits, magic := w.bits, uint32(w.nBits), w.magic
	for _, h := range hashes {
		delta := h>>17 | h<<15
		for range w.k {
			// pos < nBits = 8*nBytes, so the byte is inside the filter.
			pos := hashing.FastMod32(h, magic, nBits)
			*(*byte)(unsafe.Add(bits, pos>>3)) |= 1 << (pos & 7)
			h += delta
		}
	}
}

// setHuge sets the k bits of h in a filter of 2^32 bits or more, where
// h % nBits = h.
func (w *levelDBWriter) setHuge(h uint32) {
	delta := h>>17 | h<<15
	for range w.k {
		*(*byte)(unsafe.Add(w.bits, h>>3)) |= 1 << (h & 7)
		h += delta
	}
}

// LevelDBMayMatch reports whether key may be in the LevelDB Bloom filter
// filter, with the semantics of LevelDB's KeyMayMatch (and goleveldb's
// Contains): a filter shorter than 2 bytes matches nothing, and one whose
// k byte is above 30 (reserved by LevelDB for new encodings) matches
// everything. Any bytes are safe: no input panics or reads outside filter,
// and the work is at most 30 probes. Above 512 MiB it follows C++ LevelDB
// (see AppendLevelDB).
func LevelDBMayMatch(filter, key []byte) bool {
	n := len(filter) - 1
	if n < 1 {
		return false
	}
	k := filter[n]
	if k > 30 {
		return true
	}
	// hashing.LevelDBHash written out: Go does not inline it (its cost is
	// above the inliner's budget), and the call, with the reader's state
	// saved around it, costs about 7% per key. TestLevelDBMayMatchHash
	// keeps the two equal.
	const mul = 0xc6a4a793
	h := 0xbc9f1d34 ^ uint32(len(key))*mul
	// Loads through a pointer and an index: re-slicing key would mask the
	// pointer per word, indexing would check bounds the loop already has.
	p, i := unsafe.Pointer(unsafe.SliceData(key)), 0
	for ; i+8 <= len(key); i += 8 {
		w := binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(p, i))[:])
		h = (h + uint32(w)) * mul
		h ^= h >> 16
		h = (h + uint32(w>>32)) * mul
		h ^= h >> 16
	}
	if i+4 <= len(key) {
		h = (h + binary.LittleEndian.Uint32((*[4]byte)(unsafe.Add(p, i))[:])) * mul
		h ^= h >> 16
		i += 4
	}
	if i < len(key) {
		n, u := len(key)-i, uint32(*(*byte)(unsafe.Add(p, i)))
		if n > 1 {
			u |= uint32(*(*byte)(unsafe.Add(p, i+1))) << 8
		}
		if n > 2 {
			u |= uint32(*(*byte)(unsafe.Add(p, i+2))) << 16
		}
		h = (h + u) * mul
		h ^= h >> 24
	}
	delta := h>>17 | h<<15
	bits := unsafe.Pointer(unsafe.SliceData(filter))
	if n >= 1<<29 { // 2^32 bits or more: h % nBits = h
		all := byte(1)
		for range k {
			all &= *(*byte)(unsafe.Add(bits, h>>3)) >> (h & 7)
			h += delta
		}
		return all&1 != 0
	}
	nBits := uint32(n) << 3
	magic := hashing.DivMagic32(nBits)
	// All k probes, no early exit: a non-member's first zero bit comes at
	// a random probe, and a branch on it mispredicts about once a call.
	all := byte(1)
	for range k {
		pos := hashing.FastMod32(h, magic, nBits) // < nBits: inside filter
		all &= *(*byte)(unsafe.Add(bits, pos>>3)) >> (pos & 7)
		h += delta
	}
	return all&1 != 0
}
