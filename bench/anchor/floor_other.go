//go:build !amd64 || !gc || purego

package main

import "unsafe"

// loadsPrefetched is the plain loop where the prefetching one has no
// assembly: the sum of words[idx[i]] over idx.
func loadsPrefetched(words, idx []uint64, _ int, _ bool) uint64 {
	var sum uint64
	for _, i := range idx {
		sum += words[i]
	}
	return sum
}

// loadsHashed is the plain Go loop where the single-key floor has no
// assembly: the first word of each key's line summed over ks.
func loadsHashed(words, ks []uint64, seed, lines uint64) uint64 {
	return loadsHashedGo(words, ks, seed, lines)
}

// loadMixed is its Go twin where there is no assembly, kept a call.
//
//go:noinline
func loadMixed(p *uint64, key uint64) uint64 {
	return loadMixedGo((*floorProbe)(unsafe.Pointer(p)), key)
}
