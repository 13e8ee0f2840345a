//go:build amd64 && gc && !purego

package asm

// spatialCheckHashes runs the widest kernel on the largest multiple of its
// block (8 keys AVX2, 16 AVX-512) and the generic loop on the rest. The
// kernels compute the multiply-high reduction from two 32x32-bit products,
// exact for m < 2^32; larger arrays stay generic.
func spatialCheckHashes(cells []byte, m uint64, k uint32, cellLog uint, hs []uint64, out []uint16) int {
	if level == generic || m >= 1<<32 || len(hs) == 0 {
		return spatialCheckHashesGeneric(cells, m, k, cellLog, hs, out)
	}
	mask := uint64(1)<<(1<<cellLog) - 1
	var n, hits int
	if level >= avx512 {
		n = len(hs) &^ 15
		if n > 0 {
			hits = int(spatialCheckHashesAVX512(cells, hs[:n], out[:n], m, uint64(k), uint64(cellLog), mask))
		}
	} else {
		n = len(hs) &^ 7
		if n > 0 {
			hits = int(spatialCheckHashesAVX2(cells, hs[:n], out[:n], m, uint64(k), uint64(cellLog), mask))
		}
	}
	return hits + spatialCheckHashesGeneric(cells, m, k, cellLog, hs[n:], out[n:])
}
