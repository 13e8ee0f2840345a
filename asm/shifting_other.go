//go:build !amd64 || !gc || purego

package asm

func shiftingTestHashes(words []uint64, m uint64, pairs uint32, hs []uint64, out []bool) int {
	return shiftingTestHashesGeneric(words, m, pairs, hs, out)
}

func shiftingTestKey(p *uint64, key []byte) bool { return shiftingTestKeyGeneric(p, key) }

func shiftingTestUint64(p *uint64, key uint64) bool { return shiftingTestUint64Generic(p, key) }
