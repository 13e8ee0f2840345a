package main

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// The floor loops load what their Go statements say: loadsHashed the
// word its Go twin loads for every key (the assembly hashes as the
// single-key kernels do), loadMixed the word its Go twin loads,
// loadsPrefetched the words at idx, for lengths around the prefetch
// distance.
func TestFloorLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, lines := range []uint64{1, 7, 1000} {
		words := make([]uint64, lines*8)
		for i := range words {
			words[i] = r.Uint64()
		}
		for _, n := range []int{0, 1, 5, 63, 64, 65, 200} {
			ks := make([]uint64, n)
			idx := make([]uint64, n)
			var want uint64
			for i := range ks {
				ks[i] = r.Uint64()
				idx[i] = r.Uint64N(uint64(len(words)))
				want += words[idx[i]]
			}
			seed := r.Uint64() >> r.IntN(64)
			if got, w := loadsHashed(words, ks, seed, lines), loadsHashedGo(words, ks, seed, lines); got != w {
				t.Fatalf("lines=%d n=%d seed=%#x: loadsHashed = %#x, its Go twin %#x", lines, n, seed, got, w)
			}
			fp := newFloorProbe(words, lines)
			for _, k := range ks {
				if got, w := loadMixed((*uint64)(unsafe.Pointer(fp)), k), loadMixedGo(fp, k); got != w {
					t.Fatalf("lines=%d key=%#x: loadMixed = %#x, its Go twin %#x", lines, k, got, w)
				}
			}
			for _, intoL1 := range []bool{false, true} {
				if got := loadsPrefetched(words, idx, 64, intoL1); got != want {
					t.Fatalf("lines=%d n=%d intoL1=%v: loadsPrefetched = %#x, want %#x", lines, n, intoL1, got, want)
				}
			}
		}
	}
}
