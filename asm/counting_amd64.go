//go:build amd64 && gc && !purego

package asm

// countingTestHashes dispatches the batch test once per call.
func countingTestHashes(words []uint64, lines uint64, k uint32, wide bool, hs []uint64, out []bool) int {
	switch {
	case len(hs) == 0 || level == Generic:
		return countingTestHashesGeneric(words, lines, k, wide, hs, out)
	case level == AVX512 && wide:
		return countingTest8AVX512(&words[0], lines, uint64(k), hs, out)
	case level == AVX512:
		return countingTest4AVX512(&words[0], lines, uint64(k), hs, out)
	case wide:
		return countingTest8AVX2(&words[0], lines, uint64(k), hs, out)
	}
	return countingTest4AVX2(&words[0], lines, uint64(k), hs, out)
}

// countingPrefetch dispatches the prefetch once per call: the BMI2
// kernel at both vector levels.
func countingPrefetch(words []uint64, lines uint64, hs []uint64) {
	if len(hs) == 0 || level == Generic {
		countingPrefetchGeneric(words, lines, hs)
		return
	}
	countingPrefetchBMI2(&words[0], lines, hs)
}
