package asm

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
	return blockedTestMultiHashes(filters, k, hs, out)
}

// blockedTestMultiHashesGeneric is the specification of the multi-filter test.
func blockedTestMultiHashesGeneric(filters [][]uint64, k uint32, hs []uint64, out []bool) int {
	hits := 0
	for i, h := range hs {
		hit := false
		for _, w := range filters {
			if BlockedTestHash(w, h, k) {
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

// checkStride panics on arguments no caller can pass.
func checkStride(words []uint64, k uint32, gens int) {
	if gens < 1 || gens > BlockedMaxFilters || len(words)%gens != 0 {
		panic("asm: strided blocked filters need 1 to 64 filters of one size")
	}
	checkBlocked(words[:len(words)/gens], k)
}

// BlockedTestStrideHashes sets out[i] to whether hs[i] may be in any of gens
// blocked filters of one geometry laid one after another in words (each
// len(words)/gens words, k probes), and returns the number of hits: the
// key's line index and mask are computed once and the line at that index
// tested in every filter. out must be at least as long as hs.
func BlockedTestStrideHashes(words []uint64, gens int, k uint32, hs []uint64, out []bool) int {
	checkStride(words, k, gens)
	out = out[:len(hs)]
	return blockedTestStrideHashes(words, gens, k, hs, out)
}

// blockedTestStrideHashesGeneric is the specification of the strided test.
func blockedTestStrideHashesGeneric(words []uint64, gens int, k uint32, hs []uint64, out []bool) int {
	size := len(words) / gens
	lines := uint64(size / 8)
	hits := 0
	for i, h := range hs {
		base := int(BlockedLine(h, lines) * 8)
		m := BlockedMask(h, k)
		hit := false
		for g := range gens {
			line := words[g*size+base : g*size+base+8 : g*size+base+8]
			var miss uint64
			for w := range m {
				miss |= m[w] &^ line[w]
			}
			hit = hit || miss == 0
		}
		out[i] = hit
		if hit {
			hits++
		}
	}
	return hits
}

// BlockedSet is a list of blocked filters with one k, checked once when
// it is made, that TestHash probes one key at a time: the single-key form
// of BlockedTestMultiHashes without its per-call checks. The filters'
// arrays must stay alive and unchanged in size while the set is used.
type BlockedSet struct {
	filters [][]uint64
	k       uint32
}

// NewBlockedSet returns the set of filters (each a whole number of 8-word
// lines, all with k probes, at most BlockedMaxFilters). It keeps the
// filters slice, not a copy of it.
func NewBlockedSet(filters [][]uint64, k uint32) BlockedSet {
	checkMulti(filters, k)
	return BlockedSet{filters: filters, k: k}
}

// TestHash reports whether hash h may be in any filter of the set: the
// key's mask is built once and its line in every filter tested without a
// branch on the answers, so the loads of all the lines are in flight
// together. The zero set holds no key.
func (s BlockedSet) TestHash(h uint64) bool {
	if len(s.filters) == 0 {
		return false
	}
	return blockedTestMultiHash(s.filters, s.k, h)
}

// blockedTestMultiHashGeneric is the single-key multi-filter test in Go,
// for checked filters: for k <= 8 the key's inverted probe bits are
// computed once and every filter's line tested against them without a
// branch on the answers; a larger k tests the filters in turn.
func blockedTestMultiHashGeneric(filters [][]uint64, k uint32, h uint64) bool {
	if k > 8 {
		for _, w := range filters {
			if BlockedTestHash(w, h, k) {
				return true
			}
		}
		return false
	}
	g := h * BlockedMul
	keep := BlockedKeepRow(g, k)
	hit := uint8(0)
	for _, w := range filters {
		line, ok := BlockedLineOf(w, h)
		if !ok {
			continue
		}
		hit |= b2u8(BlockedRoundHas(line, g, keep) == ^uint64(0))
	}
	return hit != 0
}

func b2u8(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
