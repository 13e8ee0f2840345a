//go:build !amd64 || !gc || purego

package asm

func spatialCheckHashes(cells []byte, m uint64, k uint32, cellLog uint, hs []uint64, out []uint16) int {
	return spatialCheckHashesGeneric(cells, m, k, cellLog, hs, out)
}
