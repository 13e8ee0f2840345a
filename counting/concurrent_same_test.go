package counting

import (
	"slices"
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

// The plain writers and the *Concurrent (CAS) writers are the same
// function of the counters: on one sequence of adds, repeats that
// saturate counters, and removes (of held keys, keys never added and
// keys already gone), two filters written the two ways hold the same
// words and give the same answers after every step, for both counter
// widths and k across a multiplier round's end, on every kernel level
// (the plain writers are the asm.CountingAdd*/Remove* kernels there).
func TestPlainAndConcurrentWritesAgree(t *testing.T) {
	kerneltest.ForEachLevel(t, func(t *testing.T) { plainAndConcurrentWritesAgree(t) })
}

func plainAndConcurrentWritesAgree(t *testing.T) {
	for _, bits := range []int{4, 8} {
		for _, k := range []uint32{1, 6, 9, 10, 11, 19, 20, 21} {
			plain, err := NewMK(1024, k, WithCounterBits(bits))
			if err != nil {
				t.Fatal(err)
			}
			cas := plain.Clone()
			hs := randomHashes(600, uint64(k)*7+uint64(bits))
			hot := hs[:3] // added 301 times each: their counters saturate
			same := func(step string) {
				t.Helper()
				if !slices.Equal(plain.words, cas.words) {
					t.Fatalf("%d-bit k=%d: counters differ after %s", bits, k, step)
				}
			}
			for i, h := range hs {
				if a, b := plain.TestAndAddHash(h), cas.TestAndAddHashConcurrent(h); a != b {
					t.Fatalf("%d-bit k=%d key %d: TestAndAdd %v, TestAndAddConcurrent %v", bits, k, i, a, b)
				}
			}
			same("TestAndAdd")
			for range 150 {
				plain.AddHashes(hot)
				cas.AddHashesConcurrent(hot)
				for _, h := range hot {
					plain.AddHash(h)
					cas.AddHashConcurrent(h)
				}
			}
			same("saturating adds")
			if plain.Saturated() == 0 {
				t.Fatalf("%d-bit k=%d: nothing saturated", bits, k)
			}
			outP, outC := make([]bool, len(hs)), make([]bool, len(hs))
			absent := randomHashes(300, 99)
			for i, h := range absent {
				if a, b := plain.RemoveHash(h), cas.RemoveHashConcurrent(h); a != b {
					t.Fatalf("%d-bit k=%d absent %d: Remove %v, RemoveConcurrent %v", bits, k, i, a, b)
				}
			}
			same("removes of keys never added")
			np, nc := plain.RemoveHashes(hs[3:], outP), cas.RemoveHashesConcurrent(hs[3:], outC)
			if np != nc || !slices.Equal(outP, outC) {
				t.Fatalf("%d-bit k=%d: RemoveHashes %d, RemoveHashesConcurrent %d", bits, k, np, nc)
			}
			same("RemoveHashes")
			np, nc = plain.RemoveHashes(hs[3:], outP), cas.RemoveHashesConcurrent(hs[3:], outC)
			if np != nc || !slices.Equal(outP, outC) {
				t.Fatalf("%d-bit k=%d: second RemoveHashes %d, RemoveHashesConcurrent %d", bits, k, np, nc)
			}
			same("removes of keys already removed")
			for _, h := range hot {
				if plain.CountHash(h) != cas.CountHash(h) || !plain.TestHash(h) {
					t.Fatalf("%d-bit k=%d: a saturated key counts %d and %d", bits, k, plain.CountHash(h), cas.CountHash(h))
				}
			}
		}
	}
}
