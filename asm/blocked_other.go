//go:build !amd64 || !gc || purego

package asm

func blockedTest(words []uint64, k uint32, hs []uint64, out []bool) int {
	return blockedTestGeneric(words, k, hs, out)
}

func blockedAdd(words []uint64, k uint32, hs []uint64) { blockedAddGeneric(words, k, hs) }

func blockedTestMulti(filters [][]uint64, k uint32, hs []uint64, out []bool) int {
	return blockedTestMultiGeneric(filters, k, hs, out)
}

func blockedTestStride(words []uint64, gens int, k uint32, hs []uint64, out []bool) int {
	return blockedTestStrideGeneric(words, gens, k, hs, out)
}
