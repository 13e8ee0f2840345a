//go:build !amd64 || !gc || purego

package asm

func blockedTestHashes(words []uint64, k uint32, hs []uint64, out []bool) int {
	return blockedTestHashesGeneric(words, k, hs[:len(out)], out)
}

func blockedAddHashes(words []uint64, k uint32, hs []uint64, n int) {
	blockedAddHashesGeneric(words, k, hs[:n])
}

func blockedTestSetHashes(s BlockedSet, hs []uint64, out []bool) int {
	return blockedTestSetHashesGeneric(s.filters, s.k, hs, out)
}

func blockedTestSetHash(s BlockedSet, h uint64) bool {
	return blockedTestSetHashGeneric(s.filters, s.k, h)
}

func blockedTestStrideHash(words []uint64, lines, gens int, h uint64, k uint32) bool {
	return blockedTestStrideHashGeneric(words, lines, gens, h, k)
}

func blockedTestStrideHashes(words []uint64, gens int, k uint32, hs []uint64, out []bool) int {
	return blockedTestStrideHashesGeneric(words, gens, k, hs, out)
}

func blockedAddStrideHashes(words []uint64, gens, gen int, k uint32, hs []uint64) {
	blockedAddStrideHashesGeneric(words, gens, gen, k, hs)
}

func blockedTestKey(p *uint64, key []byte) bool { return blockedTestKeyGeneric(p, key) }

func blockedAddKey(p *uint64, key []byte) { blockedAddKeyGeneric(p, key) }

func blockedTestAndAddKey(p *uint64, key []byte) bool { return blockedTestAndAddKeyGeneric(p, key) }

func blockedTestUint64(p *uint64, key uint64) bool { return blockedTestUint64Generic(p, key) }

func blockedAddUint64(p *uint64, key uint64) { blockedAddUint64Generic(p, key) }

func blockedTestAndAddUint64(p *uint64, key uint64) bool {
	return blockedTestAndAddUint64Generic(p, key)
}

// blockedGroupKeys is 0: no grouped kernel without the assembly, so
// BlockedTestUint64s and BlockedAddUint64s leave every key to their
// caller's chunk loop.
func blockedGroupKeys([]uint64, uint32, int) int { return 0 }

func blockedTestUint64s(words []uint64, k uint32, key uint64, ks []uint64, out []bool) int {
	return blockedTestUint64sGeneric(words, k, key, ks, out)
}

func blockedAddUint64s(words []uint64, k uint32, key uint64, ks []uint64) {
	blockedAddUint64sGeneric(words, k, key, ks)
}
