//go:build !amd64 || !gc || purego

package asm

func spatialCheckHashes(cells []byte, m uint64, k uint32, shift uint, hs []uint64, out []uint16) int {
	return spatialCheckHashesGeneric(cells, m, k, shift, hs, out)
}
