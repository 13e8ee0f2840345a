//go:build !amd64 || !gc || purego

package asm

func countingTestHashes(words []uint64, lines uint64, k uint32, wide bool, hs []uint64, out []bool) int {
	return countingTestHashesGeneric(words, lines, k, wide, hs, out)
}

func countingPrefetchHashes(words []uint64, lines uint64, hs []uint64) {
	countingPrefetchHashesGeneric(words, lines, hs)
}
