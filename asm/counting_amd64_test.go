//go:build amd64 && gc && !purego

package asm

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/internal/cpulevel"
)

// Every test kernel answers as Generic at every prefetch distance,
// none (0, negative) included, and batch lengths on both sides of it.
func TestCountingTestKernelsDist(t *testing.T) {
	kernels := map[string]func([]uint64, []uint64, []bool, uint64, uint64, int) int{
		"4AVX2": countingTestHashes4AVX2, "8AVX2": countingTestHashes8AVX2,
		"4AVX512": countingTestHashes4AVX512, "8AVX512": countingTestHashes8AVX512,
	}
	r := rand.New(rand.NewPCG(3, 4))
	for name, kernel := range kernels {
		avx512 := name[1:] == "AVX512"
		if avx512 && !slices.Contains(cpulevel.Available(), cpulevel.AVX512) || !slices.Contains(cpulevel.Available(), cpulevel.AVX2) {
			continue
		}
		wide := name[0] == '8'
		const lines = 500
		words := countingFilter(r, lines, 7, wide, 3000)
		for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000} {
			hs := make([]uint64, n)
			for i := range hs {
				hs[i] = r.Uint64()
			}
			want := make([]bool, n)
			wantHits := countingTestHashesGeneric(words, lines, 7, wide, hs, want)
			for _, dist := range []int{-1, 0, 1, 7, 8, 9, 64, 2000} {
				got := make([]bool, n)
				if hits := kernel(words, hs, got, lines, 7, dist); hits != wantHits || !slices.Equal(got, want) {
					t.Fatalf("%s, %d hashes, dist %d: %d hits vs generic %d", name, n, dist, hits, wantHits)
				}
			}
		}
	}
}
