//go:build !amd64 || !gc || purego

package asm

func countingTestHashes(words []uint64, lines uint64, k uint32, wide bool, hs []uint64, out []bool) int {
	return countingTestHashesGeneric(words, lines, k, wide, hs, out)
}

func countingPrefetchHashes(words []uint64, lines uint64, hs []uint64) {
	countingPrefetchHashesGeneric(words, lines, hs)
}

func countingTestKey(p *uint64, key []byte) bool { return countingTestKeyGeneric(p, key) }

func countingTestUint64(p *uint64, key uint64) bool { return countingTestUint64Generic(p, key) }

func countingTestHash(p *uint64, h uint64) bool { return countingTestHashGeneric(p, h) }
