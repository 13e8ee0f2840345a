package asm

import "github.com/filterengine/filterengine/engine"

// BlockedMaxFilters is the most filters BlockedTestMultiHashes probes.
const BlockedMaxFilters = 64

// checkMulti panics on arguments no caller can pass.
func checkMulti(filters [][]uint64, k uint32) {
	if len(filters) > BlockedMaxFilters {
		panic("asm: more than 64 blocked filters in one multi-filter test")
	}
	for _, w := range filters {
		checkBlocked(w, k)
	}
}

// BlockedTestMultiHashes sets out[i] to whether hs[i] may be in any of the
// blocked filters (each a whole number of 8-word lines, all with k probes),
// and returns the number of hits: each key's mask is built once and its
// line in each filter tested in turn, in the order given, until one holds
// it. Put the filters most keys are found in first, and the large ones
// before the small ones: the kernels prefetch the lines of the leading
// filters of 1 MiB or more. out must be at least as long as hs.
func BlockedTestMultiHashes(filters [][]uint64, k uint32, hs []uint64, out []bool) int {
	checkMulti(filters, k)
	out = out[:len(hs)]
	return blockedTestMulti(filters, k, hs, out)
}

// BlockedTestMultiUint64s is BlockedTestMultiHashes over
// engine.HashUint64Seed(ks[i], seed).
func BlockedTestMultiUint64s(filters [][]uint64, k uint32, ks []uint64, seed uint64, out []bool) int {
	checkMulti(filters, k)
	out = out[:len(ks)]
	key := engine.Uint64Key(seed)
	var buf [hashChunk]uint64
	hits := 0
	for len(ks) > 0 {
		c := min(len(ks), hashChunk)
		hashUint64s(buf[:c], ks[:c], key)
		hits += blockedTestMulti(filters, k, buf[:c], out[:c])
		ks, out = ks[c:], out[c:]
	}
	return hits
}

// blockedTestMultiGeneric is the specification of the multi-filter test.
func blockedTestMultiGeneric(filters [][]uint64, k uint32, hs []uint64, out []bool) int {
	hits := 0
	for i, h := range hs {
		hit := false
		for _, w := range filters {
			if blockedTestHash(w, k, h) {
				hit = true
				break
			}
		}
		out[i] = hit
		if hit {
			hits++
		}
	}
	return hits
}
