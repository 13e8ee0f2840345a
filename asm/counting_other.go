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

func countingAddKey(p *uint64, key []byte) { countingAddKeyGeneric(p, key) }

func countingAddUint64(p *uint64, key uint64) { countingAddUint64Generic(p, key) }

func countingAddHash(p *uint64, h uint64) { countingAddHashGeneric(p, h) }

func countingTestAndAddKey(p *uint64, key []byte) bool { return countingTestAndAddKeyGeneric(p, key) }

func countingTestAndAddUint64(p *uint64, key uint64) bool {
	return countingTestAndAddUint64Generic(p, key)
}

func countingTestAndAddHash(p *uint64, h uint64) bool { return countingTestAndAddHashGeneric(p, h) }

func countingRemoveKey(p *uint64, key []byte) bool { return countingRemoveKeyGeneric(p, key) }

func countingRemoveUint64(p *uint64, key uint64) bool { return countingRemoveUint64Generic(p, key) }

func countingRemoveHash(p *uint64, h uint64) bool { return countingRemoveHashGeneric(p, h) }
