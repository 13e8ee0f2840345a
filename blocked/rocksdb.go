package blocked

import (
	"encoding/binary"
	"slices"
	"sync"
	"unsafe"

	"github.com/filterengine/filterengine/internal/hashing"
)

// RocksDB's legacy full filter (format_version < 5, "rocksdb.BuiltinBloomFilter"),
// byte for byte as Pebble v1.1's bloom package writes and reads it for its
// table filters:
//
//	filter = lines[nLines][64] || k || nLines (uint32, little-endian)
//
// For n keys, nLines = ceil(n*bitsPerKey / 512) made odd (0 for no keys,
// and then the 5-byte trailer is all zero), k = hashing.LevelDBK(bitsPerKey)
// (floor(0.69*bitsPerKey) in [1, 30]). A key with h = hashing.RocksDBHash(key)
// lives in line h % nLines; its probes are bits h, h+d, ..., h+(k-1)d
// (mod 2^32) of that line, each taken mod 512, where d = h rotated right by
// 17. Pebble's writer drops a hash equal to the one before it (so a run of
// one key counts once towards n), and so does this one.
//
// Every key touches one cache line, so the model is FPR (Putze et al.)
// with k probes per line; but inside the line the probes are a + j*d mod
// 512 for 18 bits of h, and the measured rate sits above the model (see
// the package doc and TestRocksDBLegacyFPR).
//
// The reader takes the line size from the trailer as Pebble does,
// 8*((len-5)/nLines) bits, so filters with other line sizes read too;
// the native 64-byte lines take a path with one division per key (for the
// line) and none per probe, where Pebble divides per probe.

// rocksDBLegacyBitsPerKey sanitizes a bits-per-key argument as RocksDB's
// BloomFilterPolicy does: below 1 it is 1, above
// hashing.LevelDBMaxBitsPerKey it is that cap.
func rocksDBLegacyBitsPerKey(bitsPerKey int) int {
	return min(max(bitsPerKey, 1), hashing.LevelDBMaxBitsPerKey)
}

// rocksDBHashes recycles the hash scratch of AppendRocksDBLegacy.
var rocksDBHashes = sync.Pool{New: func() any { return new([]uint32) }}

// AppendRocksDBLegacy appends to dst the RocksDB legacy Bloom filter of
// keys, exactly the bytes Pebble v1.1's bloom.FilterPolicy(bitsPerKey)
// table-filter writer appends after AddKey of each key in order, for
// bitsPerKey in [1, 100]. Below 1 it counts as 1 (Pebble writes an empty
// filter that matches nothing for 0 bits per key, and fails below 0) and
// above 100 as 100 (RocksDB's cap; Pebble has none), so a bad argument
// neither panics nor allocates more than 13 bytes per key.
func AppendRocksDBLegacy(dst []byte, keys [][]byte, bitsPerKey int) []byte {
	p := rocksDBHashes.Get().(*[]uint32)
	hs := slices.Grow((*p)[:0], len(keys))[:len(keys)]
	for i, key := range keys {
		hs[i] = hashing.RocksDBHash(key)
	}
	dst = AppendRocksDBLegacyHashes(dst, hs, bitsPerKey)
	if cap(hs) <= 1<<20 {
		*p = hs
		rocksDBHashes.Put(p)
	}
	return dst
}

// AppendRocksDBLegacyHashes is AppendRocksDBLegacy for keys already hashed
// with hashing.RocksDBHash, in order (a hash equal to the one before it
// counts once, as in Pebble's writer).
func AppendRocksDBLegacyHashes(dst []byte, hashes []uint32, bitsPerKey int) []byte {
	bitsPerKey = rocksDBLegacyBitsPerKey(bitsPerKey)
	n := 0
	for i, h := range hashes {
		if i == 0 || h != hashes[i-1] {
			n++
		}
	}
	nLines := 0
	if n > 0 {
		nLines = (n*bitsPerKey + LineBits - 1) / LineBits
		nLines |= 1 // odd, so more of the hash picks the line
	}
	start := len(dst)
	nBytes := nLines * (LineBits / 8)
	dst = append(dst, make([]byte, nBytes+5)...)
	if nLines == 0 {
		return dst
	}
	k := hashing.LevelDBK(bitsPerKey)
	dst[start+nBytes] = byte(k)
	binary.LittleEndian.PutUint32(dst[start+nBytes+1:], uint32(nLines))
	f := rocksDBLines{unsafe.Pointer(&dst[start]), uint32(nLines), hashing.DivMagic32(uint32(nLines))}
	// Four keys at a time, their probes interleaved: one key's k
	// read-modify-writes of bytes in one line otherwise form a chain
	// whenever two hit the same byte, and the CPU then serializes them.
	i := 0
	for ; i+4 <= len(hashes); i += 4 {
		h0, h1, h2, h3 := hashes[i], hashes[i+1], hashes[i+2], hashes[i+3]
		l0, l1, l2, l3 := f.line(h0), f.line(h1), f.line(h2), f.line(h3)
		d0, d1, d2, d3 := h0>>17|h0<<15, h1>>17|h1<<15, h2>>17|h2<<15, h3>>17|h3<<15
		for range k {
			l0[h0>>3&63] |= 1 << (h0 & 7)
			l1[h1>>3&63] |= 1 << (h1 & 7)
			l2[h2>>3&63] |= 1 << (h2 & 7)
			l3[h3>>3&63] |= 1 << (h3 & 7)
			h0, h1, h2, h3 = h0+d0, h1+d1, h2+d2, h3+d3
		}
	}
	for _, h := range hashes[i:] {
		line, delta := f.line(h), h>>17|h<<15
		for range k {
			line[h>>3&63] |= 1 << (h & 7)
			h += delta
		}
	}
	return dst
}

// rocksDBLines is a legacy filter being written: its lines, their count
// and the remainder constant of the count.
type rocksDBLines struct {
	bits  unsafe.Pointer
	lines uint32
	magic uint64
}

// line returns the line of hash h. Its first bit is computed in 32 bits as
// Pebble computes it; it is a multiple of 512 below 8*nBytes, so the 64
// bytes are inside the filter.
func (f rocksDBLines) line(h uint32) *[LineBits / 8]byte {
	b := hashing.FastMod32(h, f.magic, f.lines) * LineBits
	return (*[LineBits / 8]byte)(unsafe.Add(f.bits, b>>3))
}

// RocksDBLegacyMayMatch reports whether key may be in the RocksDB legacy
// Bloom filter filter, answering as Pebble v1.1's bloom package does on
// every filter it accepts: a filter of 5 bytes or fewer (the empty filter)
// matches nothing, k = 0 matches everything. Where Pebble divides by zero
// (nLines = 0 or more lines than bytes) it answers true: a corrupt filter
// must not hide keys (RocksDB treats such filters as always-true). Any
// bytes are safe: no panic, no read outside filter, at most 255 probes.
func RocksDBLegacyMayMatch(filter, key []byte) bool {
	n := len(filter) - 5
	if n <= 0 {
		return false
	}
	k := filter[n]
	lines := uint32(filter[n+1]) | uint32(filter[n+2])<<8 | uint32(filter[n+3])<<16 | uint32(filter[n+4])<<24
	// hashing.RocksDBHash written out: Go does not inline it (its cost is
	// above the inliner's budget), and the call, with the reader's state
	// saved around it, costs a leaf function's speed.
	// TestRocksDBLegacyMayMatchHash keeps the two equal.
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
		// Sign-extended bytes: each byte >= 0x80 counts 256 less at its
		// shift, which is its top bit moved one place up.
		h = (h + u - (u&0x808080)<<1) * mul
		h ^= h >> 24
	}
	delta := h>>17 | h<<15
	if uint64(lines)*(LineBits/8) != uint64(uint32(n)) {
		// Lines of another size: 8*(n/lines) bits each, as Pebble
		// computes it; where Pebble divides by zero, "may match".
		if lines == 0 || uint32(n)/lines == 0 {
			return true
		}
		lineBits := 8 * (uint32(n) / lines)
		b := (h % lines) * lineBits
		for range k {
			pos := b + h%lineBits
			if filter[pos/8]&(1<<(pos%8)) == 0 {
				return false
			}
			h += delta
		}
		return true
	}
	// (h % lines) * 512 wraps in 32 bits as in Pebble; it stays a multiple
	// of 512 below 8*n, so the line is inside filter.
	line := (*[LineBits / 8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(filter)), (h%lines)*LineBits>>3))
	// All k probes, no early exit (they share one line): a non-member's
	// first zero bit comes at a random probe, and a branch on it
	// mispredicts about once a call.
	all := byte(1)
	for range k {
		all &= line[h>>3&63] >> (h & 7)
		h += delta
	}
	return all&1 != 0
}
