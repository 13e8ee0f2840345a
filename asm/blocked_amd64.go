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

// multiPrefetch returns how many leading filters are large enough for the
// multi-filter kernels to prefetch their lines.
func multiPrefetch(filters [][]uint64) int {
	n := 0
	for n < len(filters) && len(filters[n])*8 >= blockedPrefetchBytes {
		n++
	}
	return n
}

func blockedTestMulti(filters [][]uint64, k uint32, hs []uint64, out []bool) int {
	switch level {
	case AVX512:
		return blockedTestMultiAVX512(filters, hs, out, k, multiPrefetch(filters))
	case AVX2:
		return blockedTestMultiAVX2(filters, hs, out, k, multiPrefetch(filters))
	}
	return blockedTestMultiGeneric(filters, k, hs, out)
}

func blockedTestStride(words []uint64, gens int, k uint32, hs []uint64, out []bool) int {
	lines := len(words) / gens / 8
	prefetch := len(words)*8 >= blockedPrefetchBytes
	switch level {
	case AVX512:
		return blockedTestStrideAVX512(words, hs, out, k, lines, gens, prefetch)
	case AVX2:
		return blockedTestStrideAVX2(words, hs, out, k, lines, gens, prefetch)
	}
	return blockedTestStrideGeneric(words, gens, k, hs, out)
}
