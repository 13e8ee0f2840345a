//go:build !amd64 || !gc || purego

package asm

func spatialCheckHashes(cells []byte, m uint64, k uint32, cellLog uint, hs []uint64, out []uint16) int {
	return spatialCheckHashesGeneric(cells, m, k, cellLog, hs, out)
}

func spatialCheckKey(p *uint64, key []byte) uint32 { return spatialCheckKeyGeneric(p, key) }

func spatialCheckUint64(p *uint64, key uint64) uint32 { return spatialCheckUint64Generic(p, key) }
