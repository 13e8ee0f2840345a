package asm

import "math/bits"

// SpatialPad is the number of bytes a spatial cell array must extend past
// its last cell: the SIMD kernels read each cell with a 4-byte gather.
const SpatialPad = 4

// SpatialCheckHashes answers a spatial Bloom filter's Check for each hash:
// out[i] is the smallest of the k cells probed by hs[i] (0 if any is
// empty). It returns the number of hashes with out[i] != 0.
//
// cells holds m cells of 1 << shift bytes each (shift 0: 8-bit cells,
// shift 1: 16-bit little-endian cells) followed by at least SpatialPad
// bytes; out must be at least as long as hs. Probe i of hash h is cell
// SpatialProbe(h, i, m). The AVX2 and AVX-512 kernels handle m < 2^32
// cells; larger arrays use the generic loop.
func SpatialCheckHashes(cells []byte, m uint64, k uint32, shift uint, hs []uint64, out []uint16) int {
	if len(out) < len(hs) {
		panic("asm: SpatialCheckHashes out shorter than hashes")
	}
	if shift > 1 || m == 0 || k == 0 || m > (uint64(len(cells))-SpatialPad)>>shift || len(cells) < SpatialPad {
		panic("asm: SpatialCheckHashes cell array smaller than m cells plus padding")
	}
	return spatialCheckHashes(cells, m, k, shift, hs, out[:len(hs)])
}

// SpatialProbe returns the cell index of probe i (0-based) for hash h in
// an array of m cells: double hashing g = h + i*rotl(h, 32), reduced to
// [0, m) by the multiply-high of engine.Reduce.
func SpatialProbe(h uint64, i uint32, m uint64) uint64 {
	g := h + uint64(i)*bits.RotateLeft64(h, 32)
	hi, _ := bits.Mul64(g, m)
	return hi
}

// spatialCheckHashesGeneric is the specification of the batch Check.
func spatialCheckHashesGeneric(cells []byte, m uint64, k uint32, shift uint, hs []uint64, out []uint16) int {
	hits := 0
	for j, h := range hs {
		delta := bits.RotateLeft64(h, 32)
		least := uint16(0xffff)
		for i := uint32(0); i < k; i++ {
			hi, _ := bits.Mul64(h, m)
			v := uint16(cells[hi<<shift])
			if shift == 1 {
				v |= uint16(cells[hi<<1+1]) << 8
			}
			least = min(least, v)
			if least == 0 {
				break
			}
			h += delta
		}
		out[j] = least
		if least != 0 {
			hits++
		}
	}
	return hits
}
