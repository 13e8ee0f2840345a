package leveldb

import (
	"unsafe"
)

// LevelDB's built-in Bloom filter (util/bloom.cc), the filter goleveldb's
// filter.NewBloomFilter writes and reads:
//
//	filter = bits[nBytes] || k
//
// nBytes = ceil(max(n*bitsPerKey, 64) / 8) for n keys, nBits = 8*nBytes,
// and k = Probes(bitsPerKey). A key with h = Hash(key) sets or tests bits
// h, h+d, ..., h+(k-1)d (mod 2^32), each taken mod nBits, where d = h
// rotated right by 17; bit i is bit i%8 of byte i/8.
//
// Both directions compute h % nBits without a division: fastMod's
// constant is derived once per filter (per call for MayMatch, off the
// hash's critical path), then each probe costs two multiplications.

// Append appends to dst the LevelDB Bloom filter of keys, exactly the
// bytes LevelDB's CreateFilter (and goleveldb's filter generator) appends
// for bitsPerKey. Duplicate keys are kept, as LevelDB keeps them: they
// count towards the size. A negative bitsPerKey, or keys*bitsPerKey above
// MaxBits, is an error wrapping engine.ErrParam, and dst comes back
// unchanged.
func Append(dst []byte, keys [][]byte, bitsPerKey int) ([]byte, error) {
	dst, w, err := appendLevelDB(dst, len(keys), bitsPerKey)
	if err != nil {
		return dst, err
	}
	// Hash a chunk of keys, then set their bits: each pass is a loop of
	// independent work, which runs faster than alternating the two.
	var hs [hashChunk]uint32
	for len(keys) > 0 {
		chunk := keys[:min(len(keys), len(hs))]
		for i, key := range chunk {
			hs[i] = Hash(key)
		}
		w.setAll(hs[:len(chunk)])
		keys = keys[len(chunk):]
	}
	return dst, nil
}

// hashChunk is how many keys Append hashes before it sets their bits
// (1 KiB of hashes on the stack).
const hashChunk = 256

// AppendHashes is Append for keys already hashed with Hash, the form a
// table writer that keeps one hash per key (as goleveldb's generator
// does) calls.
func AppendHashes(dst []byte, hashes []uint32, bitsPerKey int) ([]byte, error) {
	dst, w, err := appendLevelDB(dst, len(hashes), bitsPerKey)
	if err != nil {
		return dst, err
	}
	w.setAll(hashes)
	return dst, nil
}

// levelDBWriter is a filter being written: its bits, their count, the
// remainder constant of nBits and the probe count.
type levelDBWriter struct {
	bits  unsafe.Pointer
	nBits uint32
	magic uint64
	k     int
}

// appendLevelDB appends the zeroed filter for n keys and its k byte.
func appendLevelDB(dst []byte, n, bitsPerKey int) ([]byte, levelDBWriter, error) {
	m, err := filterBits(n, bitsPerKey)
	if err != nil {
		return dst, levelDBWriter{}, err
	}
	nBytes := int((max(m, 64) + 7) / 8) // at most 2^29 - 64: nBits fits 32 bits
	k := Probes(bitsPerKey)
	start := len(dst)
	dst = append(dst, make([]byte, nBytes+1)...)
	dst[start+nBytes] = byte(k)
	nBits := uint32(8 * nBytes)
	return dst, levelDBWriter{bits: unsafe.Pointer(&dst[start]), nBits: nBits, magic: divMagic(nBits), k: k}, nil
}

// setAll sets the k bits of each hash.
func (w *levelDBWriter) setAll(hashes []uint32) {
	bits, nBits, magic := w.bits, w.nBits, w.magic
	for _, h := range hashes {
		delta := h>>17 | h<<15
		for range w.k {
			// pos < nBits = 8*nBytes, so the byte is inside the filter.
			pos := fastMod(h, magic, nBits)
			*(*byte)(unsafe.Add(bits, pos>>3)) |= 1 << (pos & 7)
			h += delta
		}
	}
}

// MayMatch reports whether key may be in the LevelDB Bloom filter filter,
// with the semantics of LevelDB's KeyMayMatch (and goleveldb's Contains):
// a filter shorter than 2 bytes matches nothing, and one whose k byte is
// above 30 (reserved by LevelDB for new encodings) matches everything.
// Any bytes are safe: no input panics or reads outside filter, and the
// work is at most 30 probes. A filter of 2^29 bytes or more (which no
// writer of either engine produces) reads as C++ LevelDB reads it: bit
// h % nBits is then bit h; goleveldb's 32-bit size wraps there.
func MayMatch(filter, key []byte) bool {
	// The hash first: fewer values live across its call.
	h := hash(key, 0)
	n := len(filter) - 1
	if n < 1 {
		return false
	}
	k := filter[n]
	if k > 30 {
		return true
	}
	delta := h>>17 | h<<15
	bits := unsafe.Pointer(unsafe.SliceData(filter))
	if n >= 1<<29 { // 2^32 bits or more: h % nBits = h, and h>>3 < n
		all := byte(1)
		for range k {
			all &= *(*byte)(unsafe.Add(bits, h>>3)) >> (h & 7)
			h += delta
		}
		return all&1 != 0
	}
	nBits := uint32(n) << 3 // n < 2^29: no wrap
	magic := divMagic(nBits)
	// All k probes, no early exit: a non-member's first zero bit comes at
	// a random probe, and a branch on it mispredicts about once a call.
	all := byte(1)
	for range k {
		pos := fastMod(h, magic, nBits) // < nBits: inside filter
		all &= *(*byte)(unsafe.Add(bits, pos>>3)) >> (pos & 7)
		h += delta
	}
	return all&1 != 0
}
