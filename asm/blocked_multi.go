package asm

import (
	"runtime"
	"unsafe"
)

// blockedMaxFilters is the most filters a BlockedSet holds, and the most
// strided filters.
const blockedMaxFilters = 64

// checkStride panics on arguments no caller can pass.
func checkStride(words []uint64, k uint32, gens int) {
	if gens < 1 || gens > blockedMaxFilters || len(words)%gens != 0 {
		panic("asm: strided blocked filters need 1 to 64 filters of one size")
	}
	checkBlocked(words[:len(words)/gens], k)
}

// The strided layout of gens blocked filters of one geometry (a
// blocked.Window's generations), each of lines lines with k probes: the
// filters are interleaved line by line, line j of filter g at
// words[(j*gens+g)*8:][:8], so a key's line in every filter lies in one
// run of gens*64 bytes (adjacent lines, which the adjacent-line prefetcher
// fetches in pairs; the run may cross a page edge). A key is in filter g
// when it is in that filter's line BlockedLine(h, lines), as in one
// blocked filter.

// BlockedStrideLine returns the 8 words of the line of hash h in filter
// gen of the strided filters in words.
func BlockedStrideLine(words []uint64, gens, gen int, h uint64) []uint64 {
	return strideLine(words, uint64(len(words)/gens/8), gens, gen, h)
}

// strideLine is BlockedStrideLine given the line count of a filter.
func strideLine(words []uint64, lines uint64, gens, gen int, h uint64) []uint64 {
	base := (int(BlockedLine(h, lines))*gens + gen) * 8
	return words[base : base+8 : base+8]
}

// BlockedAddStrideHashes adds every hash in hs to filter gen of the gens
// strided filters in words, with k probes.
func BlockedAddStrideHashes(words []uint64, gens, gen int, k uint32, hs []uint64) {
	checkStride(words, k, gens)
	if gen < 0 || gen >= gens {
		panic("asm: strided filter index out of range")
	}
	blockedAddStrideHashes(words, gens, gen, k, hs)
}

// blockedAddStrideHashesGeneric is the specification of the strided batch
// add: BlockedAddHash of each key into its line of filter gen.
func blockedAddStrideHashesGeneric(words []uint64, gens, gen int, k uint32, hs []uint64) {
	lines := uint64(len(words) / gens / 8)
	for _, h := range hs {
		BlockedAddHash(strideLine(words, lines, gens, gen, h), h, k)
	}
}

// BlockedTestStrideHashes sets out[i] to whether hs[i] may be in any of
// the gens strided filters in words (each len(words)/gens words, k probes),
// and returns the number of hits: the key's line index and mask are
// computed once and its gens adjacent lines tested. out must be at least
// as long as hs.
func BlockedTestStrideHashes(words []uint64, gens int, k uint32, hs []uint64, out []bool) int {
	checkStride(words, k, gens)
	out = out[:len(hs)]
	return blockedTestStrideHashes(words, gens, k, hs, out)
}

// blockedTestStrideHashesGeneric is the specification of the strided
// test: the single-key probe, blockedTestStrideHashGeneric, over the slice, so
// the batch path without assembly (purego, arm64) is the single-key loop
// itself.
func blockedTestStrideHashesGeneric(words []uint64, gens int, k uint32, hs []uint64, out []bool) int {
	hits, lines := 0, len(words)/gens/8
	for i, h := range hs {
		hit := blockedTestStrideHashGeneric(words, lines, gens, h, k)
		out[i] = hit
		if hit {
			hits++
		}
	}
	return hits
}

// BlockedSet is a list of blocked filters with one k, checked once when
// it is made, that a key is tested against together: its mask is built
// once and its line in every filter tested without a branch on the
// answers, so the loads of all its lines are in flight at once. The
// filters' arrays must stay alive and unchanged in size while the set is
// used.
type BlockedSet struct {
	filters [][]uint64
	// table holds per filter its line count and the address of its first
	// line, what the kernels read (the arrays are kept alive by filters),
	// padded to an even number of filters with blockedNoLine, which holds
	// no key: the kernels test two filters per step.
	table []uint64
	k     uint32
	// npref is how many leading filters are large enough for the batch
	// test to prefetch their lines (prefetchDist).
	npref int
}

// blockedNoLine is the line of the filter a set is padded with: all
// zeros, so no mask (every mask has a bit) is in it. Nothing writes it.
var blockedNoLine [8]uint64

// NewBlockedSet returns the set of filters (each a whole number of 8-word
// lines, all with k probes, at most blockedMaxFilters). It keeps the
// filters slice, not a copy of it. Put the filters most keys are found in
// first, and the large ones before the small ones: the batch test
// prefetches the lines of the leading filters of 1 MiB or more.
func NewBlockedSet(filters [][]uint64, k uint32) BlockedSet {
	if len(filters) > blockedMaxFilters {
		panic("asm: more than 64 blocked filters in one set")
	}
	s := BlockedSet{filters: filters, k: k, table: make([]uint64, 0, 2*len(filters)+2)}
	for _, w := range filters {
		checkBlocked(w, k)
		s.table = append(s.table, uint64(len(w)/8), uint64(uintptr(unsafe.Pointer(&w[0]))))
	}
	if len(filters)%2 != 0 {
		s.table = append(s.table, 1, uint64(uintptr(unsafe.Pointer(&blockedNoLine[0]))))
	}
	for s.npref < len(filters) && prefetchBytesOf(filters[s.npref]) {
		s.npref++
	}
	return s
}

// TestHash reports whether hash h may be in any filter of the set. The
// zero set holds no key.
func (s BlockedSet) TestHash(h uint64) bool {
	if len(s.filters) == 0 {
		return false
	}
	hit := blockedTestSetHash(s, h)
	runtime.KeepAlive(s.filters)
	return hit
}

// TestHashes sets out[i] to whether hs[i] may be in any filter of the set
// and returns the number of hits. out must be at least as long as hs.
func (s BlockedSet) TestHashes(hs []uint64, out []bool) int {
	out = out[:len(hs)]
	if len(s.filters) == 0 {
		clear(out)
		return 0
	}
	hits := blockedTestSetHashes(s, hs, out)
	runtime.KeepAlive(s.filters)
	return hits
}

// blockedTestSetHashesGeneric is the specification of the set's test: per
// key, the filters in turn until one holds it.
func blockedTestSetHashesGeneric(filters [][]uint64, k uint32, hs []uint64, out []bool) int {
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

// blockedTestSetHashGeneric is the single-key set test in Go, for checked
// filters: for k <= 8 the key's inverted probe bits are computed once and
// every filter's line tested against them without a branch on the
// answers; a larger k tests the filters in turn.
func blockedTestSetHashGeneric(filters [][]uint64, k uint32, h uint64) bool {
	if k > 8 {
		for _, w := range filters {
			if BlockedTestHash(w, h, k) {
				return true
			}
		}
		return false
	}
	g := h * BlockedMul
	keep := blockedKeepRow(g, k)
	hit := uint8(0)
	for _, w := range filters {
		line, ok := blockedLineOf(w, h)
		if !ok {
			continue
		}
		hit |= b2u8(blockedRoundHas(line, g, keep) == ^uint64(0))
	}
	return hit != 0
}

func b2u8(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
