//go:build amd64 && gc && !purego

package asm

// blockedPrefetchBytes is the filter size from which the batch kernels
// prefetch: past the 512 KiB L2 of the machine measured, a line costs an
// L3 or DRAM round trip that a prefetch issued blockedPrefetchDist keys
// ahead overlaps with work on the keys in between.
const (
	blockedPrefetchBytes = 1 << 20
	blockedPrefetchDist  = 16
)

func blockedDist(words []uint64) int {
	if len(words)*8 >= blockedPrefetchBytes {
		return blockedPrefetchDist
	}
	return 0
}

func blockedTest(words []uint64, k uint32, hs []uint64, out []bool) int {
	switch level {
	case AVX512:
		return blockedTestAVX512(words, hs, out, k, blockedDist(words))
	case AVX2:
		return blockedTestAVX2(words, hs, out, k, blockedDist(words))
	}
	return blockedTestGeneric(words, k, hs, out)
}

func blockedAdd(words []uint64, k uint32, hs []uint64) {
	switch level {
	case AVX512:
		blockedAddAVX512(words, hs, k, blockedDist(words))
	case AVX2:
		blockedAddAVX2(words, hs, k, blockedDist(words))
	default:
		blockedAddGeneric(words, k, hs)
	}
}
