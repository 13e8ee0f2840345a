package leveldb

import (
	"encoding/binary"
	"slices"
	"sync"
	"unsafe"
)

// RocksDB's legacy full filter (format_version < 5,
// "rocksdb.BuiltinBloomFilter"), byte for byte as Pebble v1.1's bloom
// package writes and reads it for its table filters:
//
//	filter = lines[nLines][64] || k || nLines (uint32, little-endian)
//
// For n keys, nLines = ceil(n*bitsPerKey / 512), made odd (so 1 whenever
// it would be 0 for n > 0: at 0 bits per key every key shares one line),
// and 0 for no keys, when the 5-byte trailer is all zero; k =
// Probes(bitsPerKey). A key with h = RocksDBHash(key) lives in line
// h % nLines; its probes are bits h, h+d, ..., h+(k-1)d (mod 2^32) of that
// line, each taken mod 512, where d = h rotated right by 17. Pebble's
// writer drops a hash equal to the one before it (so a run of one key
// counts once towards n), and so does this one.
//
// The reader takes the line size from the trailer as Pebble does,
// 8*((len-5)/nLines) bits, so filters with other line sizes read too; the
// native 64-byte lines take a path with one division per key (for the
// line) and none per probe, where Pebble divides per probe.

// lineBytes is the size of a native line.
const lineBytes = 64

// rocksDBHashes recycles the hash scratch of AppendRocksDB.
var rocksDBHashes = sync.Pool{New: func() any { return new([]uint32) }}

// AppendRocksDB appends to dst the RocksDB legacy Bloom filter of keys,
// exactly the bytes Pebble v1.1's bloom.FilterPolicy(bitsPerKey)
// table-filter writer appends after AddKey of each key in order, for every
// bitsPerKey Pebble accepts, 0 included (one line, k = 1). A negative
// bitsPerKey (Pebble's probe count is then platform-dependent, and it
// panics for many keys), or distinct keys*bitsPerKey above MaxBits, is an
// error wrapping engine.ErrParam, and dst comes back unchanged.
func AppendRocksDB(dst []byte, keys [][]byte, bitsPerKey int) ([]byte, error) {
	p := rocksDBHashes.Get().(*[]uint32)
	hs := slices.Grow((*p)[:0], len(keys))[:len(keys)]
	for i, key := range keys {
		hs[i] = RocksDBHash(key)
	}
	dst, err := AppendRocksDBHashes(dst, hs, bitsPerKey)
	if cap(hs) <= 1<<20 {
		*p = hs
		rocksDBHashes.Put(p)
	}
	return dst, err
}

// AppendRocksDBHashes is AppendRocksDB for keys already hashed with
// RocksDBHash, in order (a hash equal to the one before it counts once, as
// in Pebble's writer).
func AppendRocksDBHashes(dst []byte, hashes []uint32, bitsPerKey int) ([]byte, error) {
	n := 0
	for i, h := range hashes {
		if i == 0 || h != hashes[i-1] {
			n++
		}
	}
	m, err := filterBits(n, bitsPerKey)
	if err != nil {
		return dst, err
	}
	nLines := 0
	if n > 0 {
		// At most 2^23 - 1 lines (m <= MaxBits), so line offsets fit 32
		// bits.
		nLines = int((m+8*lineBytes-1)/(8*lineBytes)) | 1 // odd, so more of the hash picks the line
	}
	start := len(dst)
	nBytes := nLines * lineBytes
	dst = append(dst, make([]byte, nBytes+5)...)
	if nLines == 0 {
		return dst, nil
	}
	k := Probes(bitsPerKey)
	dst[start+nBytes] = byte(k)
	binary.LittleEndian.PutUint32(dst[start+nBytes+1:], uint32(nLines))
	f := rocksDBLines{unsafe.Pointer(&dst[start]), uint32(nLines), divMagic(uint32(nLines))}
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
	return dst, nil
}

// rocksDBLines is a legacy filter being written: its lines, their count
// and the remainder constant of the count.
type rocksDBLines struct {
	bits  unsafe.Pointer
	lines uint32
	magic uint64
}

// line returns the line of hash h, inside the filter.
func (f rocksDBLines) line(h uint32) *[lineBytes]byte {
	return (*[lineBytes]byte)(unsafe.Add(f.bits, uintptr(fastMod(h, f.magic, f.lines))*lineBytes))
}

// RocksDBMayMatch reports whether key may be in the RocksDB legacy Bloom
// filter filter, answering as Pebble v1.1's bloom package does on every
// filter it reads: a filter of 5 bytes or fewer (the empty filter) matches
// nothing, k = 0 matches everything. Where Pebble's arithmetic breaks (it
// divides by zero: no lines, more lines than bytes, or a line size
// 8*((len-5)/nLines) that wraps to 0 in 32 bits) it answers true: a
// corrupt filter must not hide keys (RocksDB treats such filters as
// always-true). Any bytes are safe: no panic, no read outside filter, at
// most 255 probes.
func RocksDBMayMatch(filter, key []byte) bool {
	// The hash first: fewer values live across its call.
	h := hash(key, ^uint32(0))
	n := len(filter) - 5
	if n <= 0 {
		return false
	}
	k := filter[n]
	lines := binary.LittleEndian.Uint32(filter[n+1:])
	if lines == 0 || uint64(lines)*lineBytes != uint64(uint32(n)) {
		return probeLines(uint32(n), lines, h, k, func(i uint32) byte { return filter[i] })
	}
	// (h % lines) * 512 wraps in 32 bits as in Pebble (for a filter of
	// 2^32 bytes or more, whose length Pebble takes mod 2^32); it stays a
	// multiple of 512 below 8*uint32(n), so the line is inside filter.
	line := (*[lineBytes]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(filter)), (h%lines)*(8*lineBytes)>>3))
	delta := h>>17 | h<<15
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

// probeLines is Pebble's reader for lines of any size, over the filter's
// bytes at(i) for i < the bitset length, of which n is the low 32 bits (as
// Pebble takes it): lines of 8*(n/lines) bits in 32-bit arithmetic, k
// probes of hash h. Where that arithmetic divides by zero it answers true.
// Every index it reads is below n, or below 2^29 where n wrapped (when
// the true length is 2^32 or more): inside the filter.
func probeLines(n, lines, h uint32, k byte, at func(i uint32) byte) bool {
	if lines == 0 {
		return true
	}
	lineBits := 8 * (n / lines)
	if lineBits == 0 { // more lines than bytes, or n/lines a multiple of 2^29
		return true
	}
	delta := h>>17 | h<<15
	b := (h % lines) * lineBits
	for range k {
		pos := b + h%lineBits
		if at(pos/8)&(1<<(pos%8)) == 0 {
			return false
		}
		h += delta
	}
	return true
}
