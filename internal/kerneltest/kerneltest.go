// Package kerneltest holds what every family's tests need to run each
// kernel level in one process. Only _test files import it.
package kerneltest

import (
	"testing"

	"github.com/filterengine/filterengine/asm"
)

// ForEachLevel runs f as a subtest named after each kernel level this CPU
// and build can run, with every kernel switched to that level.
func ForEachLevel(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	for _, l := range asm.Available() {
		t.Run(l.String(), func(t *testing.T) {
			restore, err := asm.UseLevel(l)
			if err != nil {
				t.Fatal(err)
			}
			defer restore()
			f(t)
		})
	}
}

// BatchLengths are batch lengths for concurrent tests: with 8 lanes (AVX2)
// and 16 (AVX-512) each leaves a tail for the generic loop, and 1000
// also covers whole vector blocks, so at every level some batch reads
// run in Go where the race detector sees them.
var BatchLengths = []int{1, 7, 9, 15, 17, 33, 1000}

// Batches cuts xs into consecutive batches whose lengths cycle through
// BatchLengths (the last one shorter if xs runs out).
func Batches[T any](xs []T) [][]T {
	var out [][]T
	for i := 0; len(xs) > 0; i++ {
		n := min(len(xs), BatchLengths[i%len(BatchLengths)])
		out = append(out, xs[:n:n])
		xs = xs[n:]
	}
	return out
}
