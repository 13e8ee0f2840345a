//go:build amd64 && gc && !purego

package main

import "github.com/filterengine/filterengine/asm"

// hasLeastWork reports whether the level runs grouped kernels, whose
// floors leastWork times.
func hasLeastWork() bool { l := asm.Kernel(); return l == "avx512" || l == "avx2" }

// leastWork runs the floor of the grouped batch kernel the level runs
// (see groupFloorKernels in gen/blocked) over the whole groups of ks on
// words, a test (out non-nil; it returns the hits) or an add, with the
// prefetch the library's kernel takes for an array of that size. The
// level must have grouped kernels (hasLeastWork).
func leastWork(words, ks []uint64, out []bool, k uint32, key uint64) int {
	ks = ks[:len(ks)&^7]
	pf := asm.BlockedGroupPrefetch(words)
	avx512 := asm.Kernel() == "avx512"
	switch {
	case out != nil && avx512:
		return blockedTestUint64sFloorAVX512(words, ks, out[:len(ks)], k, key, pf)
	case out != nil:
		return blockedTestUint64sFloorAVX2(words, ks, out[:len(ks)], k, key, pf)
	case avx512:
		blockedAddUint64sFloorAVX512(words, ks, k, key, pf)
	default:
		blockedAddUint64sFloorAVX2(words, ks, k, key, pf)
	}
	return 0
}
