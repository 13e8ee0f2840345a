//go:build amd64 && gc && !purego

package asm

// countingTestHashes dispatches the batch test once per call; the
// kernels prefetch the line of the key countingPrefetchDist places ahead.
func countingTestHashes(words []uint64, lines uint64, k uint32, wide bool, hs []uint64, out []bool) int {
	switch {
	case len(hs) == 0 || level == generic:
		return countingTestHashesGeneric(words, lines, k, wide, hs, out)
	case level == avx512 && wide:
		return countingTestHashes8AVX512(words, hs, out, lines, uint64(k), countingPrefetchDist)
	case level == avx512:
		return countingTestHashes4AVX512(words, hs, out, lines, uint64(k), countingPrefetchDist)
	case wide:
		return countingTestHashes8AVX2(words, hs, out, lines, uint64(k), countingPrefetchDist)
	}
	return countingTestHashes4AVX2(words, hs, out, lines, uint64(k), countingPrefetchDist)
}

// countingPrefetchHashes dispatches the prefetch once per call: the
// scalar BMI2 kernel at both vector levels.
func countingPrefetchHashes(words []uint64, lines uint64, hs []uint64) {
	if len(hs) == 0 || level == generic {
		countingPrefetchHashesGeneric(words, lines, hs)
		return
	}
	countingPrefetchHashesAVX2(words, hs, lines)
}
