//go:build !amd64 || !gc || purego

package main

// loadsPrefetched is the plain loop where the prefetching one has no
// assembly: the sum of words[idx[i]] over idx.
func loadsPrefetched(words, idx []uint64, _ int) uint64 {
	var sum uint64
	for _, i := range idx {
		sum += words[i]
	}
	return sum
}
