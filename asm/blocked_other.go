//go:build !amd64 || !gc || purego

package asm

func blockedTestHashes(words []uint64, k uint32, hs []uint64, out []bool) int {
	return blockedTestHashesGeneric(words, k, hs, out)
}

func blockedAddHashes(words []uint64, k uint32, hs []uint64) { blockedAddHashesGeneric(words, k, hs) }

func blockedTestMultiHashes(filters [][]uint64, k uint32, hs []uint64, out []bool) int {
	return blockedTestMultiHashesGeneric(filters, k, hs, out)
}

func blockedTestMultiHash(filters [][]uint64, k uint32, h uint64) bool {
	return blockedTestMultiHashGeneric(filters, k, h)
}

func blockedTestStrideHashes(words []uint64, gens int, k uint32, hs []uint64, out []bool) int {
	return blockedTestStrideHashesGeneric(words, gens, k, hs, out)
}

func blockedAddStrideHashes(words []uint64, gens, gen int, k uint32, hs []uint64) {
	blockedAddStrideHashesGeneric(words, gens, gen, k, hs)
}
