package asm

import (
	"math/bits"
	"unsafe"

	"github.com/filterengine/filterengine/internal/store"
)

// spatialPad is the number of bytes a spatial cell array must extend past
// its last cell: every cell is read with a 4-byte load (a gather lane in
// the SIMD kernels) starting at the byte that holds its first bit.
const spatialPad = 4

// SpatialCheckHashes answers a spatial Bloom filter's Check for each hash:
// out[i] is the smallest of the k cells probed by hs[i] (0 if any is
// empty). It returns the number of hashes with out[i] != 0.
//
// cells holds m cells of 1 << cellLog bits each, packed little-endian
// (cellLog 2: two 4-bit cells per byte, the lower-numbered cell in the
// low nibble; 3: bytes; 4: 16-bit little-endian words), followed by at
// least 4 bytes of padding (every cell is read with a 4-byte load from
// the byte holding its first bit), and starts 4-byte aligned (engine storage is
// 64-byte aligned); out must be at least as long as hs. Probe i of hash h
// is cell hashing.Reduce(h + i*rotl(h, 32), m). The AVX2 and AVX-512 kernels handle
// m < 2^32 cells; larger arrays use the generic loop.
//
// Other goroutines may raise cells concurrently with 32-bit
// compare-and-swap on the aligned words: the generic loop (and with it
// every tail the SIMD kernels leave) reads each cell's aligned word
// atomically, and the gathers' 4-byte loads see every cell's bits from
// one store, since no cell straddles an aligned word and x86 loads are
// not torn within a cache line.
func SpatialCheckHashes(cells []byte, m uint64, k uint32, cellLog uint, hs []uint64, out []uint16) int {
	if len(out) < len(hs) {
		panic("asm: SpatialCheckHashes out shorter than hashes")
	}
	if cellLog < 2 || cellLog > 4 {
		panic("asm: SpatialCheckHashes cells of other than 4, 8 or 16 bits")
	}
	if m == 0 || k == 0 || len(cells) < spatialPad || m > uint64(len(cells)-spatialPad)*8>>cellLog {
		panic("asm: SpatialCheckHashes cell array smaller than m cells plus padding")
	}
	if uintptr(unsafe.Pointer(unsafe.SliceData(cells)))%4 != 0 {
		panic("asm: SpatialCheckHashes cell array not 4-byte aligned")
	}
	return spatialCheckHashes(cells, m, k, cellLog, hs, out[:len(hs)])
}

// spatialProbe returns the cell index of probe i (0-based) for hash h in
// an array of m cells: double hashing g = h + i*rotl(h, 32), reduced to
// [0, m) by the multiply-high of hashing.Reduce.
func spatialProbe(h uint64, i uint32, m uint64) uint64 {
	g := h + uint64(i)*bits.RotateLeft64(h, 32)
	hi, _ := bits.Mul64(g, m)
	return hi
}

// spatialCheckHashesGeneric is the specification of the batch Check. Cell
// p starts at bit b = p << cellLog; its value is the little-endian 4 bytes
// at byte b>>3, shifted right by b&7 (0, or 4 for the odd 4-bit cells),
// masked to the cell width. A cell never straddles an aligned 32-bit
// word, so that is also the aligned word b>>5 shifted right by b&31,
// which is how SpatialCheck reads it: one atomic load per probe, safe
// beside writers that raise cells by CAS (see SpatialCheckHashes). The
// loop is SpatialCheck per hash, with the width chosen once per batch so
// each width's shifts are constants.
func spatialCheckHashesGeneric(cells []byte, m uint64, k uint32, cellLog uint, hs []uint64, out []uint16) int {
	words := (*uint32)(unsafe.Pointer(unsafe.SliceData(cells)))
	out = out[:len(hs)]
	hits := 0
	switch cellLog {
	case 2:
		for j, h := range hs {
			spatialTouch(words, m, hs, j+spatialPrefetchDist, 2)
			v := spatialCheck(words, m, k, h, 2, 0xf)
			out[j] = uint16(v)
			hits += int((v | -v) >> 31)
		}
	case 3:
		for j, h := range hs {
			spatialTouch(words, m, hs, j+spatialPrefetchDist, 3)
			v := spatialCheck(words, m, k, h, 3, 0xff)
			out[j] = uint16(v)
			hits += int((v | -v) >> 31)
		}
	default:
		for j, h := range hs {
			spatialTouch(words, m, hs, j+spatialPrefetchDist, 4)
			v := spatialCheck(words, m, k, h, 4, 0xffff)
			out[j] = uint16(v)
			hits += int((v | -v) >> 31)
		}
	}
	return hits
}

// spatialPrefetchDist is the prefetch distance (dist) of the generic
// batch loops: they touch the first cell of the key this many places
// ahead, a plain load (Go has no prefetch instruction) that starts the
// miss early, so the misses of several keys overlap, which the
// single-key loop cannot do.
const spatialPrefetchDist = 8

// spatialTouch loads the word of hs[j]'s first cell, if j is in range.
func spatialTouch(words *uint32, m uint64, hs []uint64, j int, cellLog uint) {
	if uint(j) < uint(len(hs)) {
		p, _ := bits.Mul64(hs[j], m)
		store.LoadLE32((*uint32)(unsafe.Add(unsafe.Pointer(words), p<<cellLog>>3&^3)))
	}
}

// SpatialCheck answers one hash's Check on libSBF's layout: the smallest
// of the k cells hashing.Reduce(h + i*rotl(h, 32), m) of 1 << cellLog
// bits (cellLog 2, 3 or 4) at words, 0 as soon as one is empty. words
// must point at 4-byte aligned memory holding m cells and 4 bytes of
// padding; nothing is bounds-checked.
// Each width runs its own copy of the probe loop with constant shifts.
func SpatialCheck(words *uint32, m uint64, k uint32, cellLog uint, h uint64) uint32 {
	switch cellLog {
	case 2:
		return spatialCheck(words, m, k, h, 2, 0xf)
	case 3:
		return spatialCheck(words, m, k, h, 3, 0xff)
	}
	return spatialCheck(words, m, k, h, 4, 0xffff)
}

// spatialCheck is SpatialCheck's probe loop; it is inlined into each call
// with a constant cellLog and mask = 1<<(1<<cellLog) - 1.
func spatialCheck(words *uint32, m uint64, k uint32, h uint64, cellLog uint, mask uint32) uint32 {
	delta := bits.RotateLeft64(h, 32)
	least := uint32(0xffff)
	for range k {
		hi, _ := bits.Mul64(h, m)
		if least = min(least, spatialCell(words, hi, cellLog, mask)); least == 0 {
			break
		}
		h += delta
	}
	return least
}

// spatialCell loads cell p of 1 << cellLog bits (mask: the cell's bits)
// from its aligned word.
func spatialCell(words *uint32, p uint64, cellLog uint, mask uint32) uint32 {
	bit := p << cellLog
	return store.LoadLE32((*uint32)(unsafe.Add(unsafe.Pointer(words), bit>>3&^3))) >> (bit & 31) & mask
}
