//go:build amd64 && gc && !purego

package main

import "github.com/filterengine/filterengine/asm"

// leastWork runs the floor of the grouped batch kernel the level runs
// (see groupFloorKernels in gen/blocked) over the whole groups of ks on
// words, a test (out non-nil; it returns the hits) or an add, with the
// prefetch the library's kernel takes for an array of that size. It
// reports false where the level has no grouped kernel.
func leastWork(words, ks []uint64, out []bool, k uint32, key uint64) (int, bool) {
	ks = ks[:len(ks)&^7]
	pf := asm.BlockedGroupPrefetch(words)
	switch asm.Kernel() {
	case "avx512":
		if out != nil {
			return blockedTestUint64sFloorAVX512(words, ks, out[:len(ks)], k, key, pf), true
		}
		blockedAddUint64sFloorAVX512(words, ks, k, key, pf)
		return 0, true
	case "avx2":
		if out != nil {
			return blockedTestUint64sFloorAVX2(words, ks, out[:len(ks)], k, key, pf), true
		}
		blockedAddUint64sFloorAVX2(words, ks, k, key, pf)
		return 0, true
	}
	return 0, false
}
