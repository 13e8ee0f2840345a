//go:build amd64 && gc && !purego

package asm

// countingTestHashes dispatches the batch test once per call.
func countingTestHashes(words []uint64, lines uint64, k uint32, wide bool, hs []uint64, out []bool) int {
	if len(hs) == 0 || level == Generic {
		return countingTestHashesGeneric(words, lines, k, wide, hs, out)
	}
	cellMask, nibbles := uint64(127), uint64(0x0f0f0f0f0f0f0f0f)
	if wide {
		cellMask, nibbles = 63, ^uint64(0)
	}
	if level == AVX512 {
		return countingTestAVX512(&words[0], lines, uint64(k), cellMask, nibbles, hs, out)
	}
	return countingTestAVX2(&words[0], lines, uint64(k), cellMask, nibbles, hs, out)
}
