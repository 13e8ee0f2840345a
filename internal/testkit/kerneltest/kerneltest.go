// Package kerneltest holds what every family's tests need to run each
// kernel level in one process. Only _test files import it.
package kerneltest

import (
	"os"
	"testing"

	"github.com/filterengine/filterengine/internal/cpulevel"
)

// EnvRequireKernel names the kernel a test run must have selected. make
// test sets it beside FILTERENGINE_KERNEL so a run that claims a level
// proves it, package by package.
const EnvRequireKernel = "FILTERENGINE_REQUIRE_KERNEL"

// RequireKernel fails t unless the kernel selected at start-up is the one
// EnvRequireKernel names (it skips when the variable is unset). Each
// package's TestKernel calls it. Reading both variables inside a test
// also puts them in go test's cache key: the level is chosen during
// package initialisation, before the test log starts, so without this a
// run at another level would be served from the cache.
func RequireKernel(t *testing.T) {
	t.Helper()
	capped := os.Getenv(cpulevel.Env)
	want, ok := os.LookupEnv(EnvRequireKernel)
	if !ok || want == "" {
		t.Skipf("%s not set; kernel in use: %s (%s=%q)", EnvRequireKernel, cpulevel.Current(), cpulevel.Env, capped)
	}
	l, err := cpulevel.Parse(want)
	if err != nil {
		t.Fatal(err)
	}
	if cpulevel.Current() != l {
		t.Fatalf("%s=%s but the kernel in use is %s (%s=%q)", EnvRequireKernel, want, cpulevel.Current(), cpulevel.Env, capped)
	}
}

// ForEachLevel runs f as a subtest named after each kernel level this CPU
// and build can run, with every kernel switched to that level.
func ForEachLevel(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	for _, l := range cpulevel.Available() {
		t.Run(l.String(), func(t *testing.T) {
			restore, err := cpulevel.Use(l)
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
