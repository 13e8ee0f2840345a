package asm

import (
	"os"
	"testing"

	"github.com/filterengine/filterengine/internal/cpulevel"
)

// EnvRequireKernel names the kernel a test run must have selected; CI sets
// it beside FILTERENGINE_KERNEL so a run that claims a SIMD path proves it.
const EnvRequireKernel = "FILTERENGINE_REQUIRE_KERNEL"

// TestRequireKernel is kerneltest.RequireKernel for this package, which
// that helper cannot import: reading both variables here keys go test's
// cache on them.
func TestRequireKernel(t *testing.T) {
	_ = os.Getenv(cpulevel.Env)
	want, ok := os.LookupEnv(EnvRequireKernel)
	if !ok || want == "" {
		t.Skipf("%s not set; kernel in use: %s", EnvRequireKernel, Kernel())
	}
	l, err := cpulevel.Parse(want)
	if err != nil {
		t.Fatal(err)
	}
	if level != l {
		t.Fatalf("%s=%s but the kernel in use is %s (best available %s)", EnvRequireKernel, want, Kernel(), cpulevel.Best())
	}
}

// The level asm's kernels read is the one cpulevel switches, and
// Available names every level cpulevel can switch to.
func TestLevelBound(t *testing.T) {
	names := Available()
	for i, l := range cpulevel.Available() {
		restore, err := cpulevel.Use(l)
		if err != nil {
			t.Fatal(err)
		}
		if level != l || Kernel() != names[i] {
			t.Errorf("cpulevel.Use(%v) left asm at %v (Kernel %q, Available %q)", l, level, Kernel(), names[i])
		}
		restore()
	}
}

// forEachLevel runs f once per available kernel level as a subtest.
func forEachLevel(t *testing.T, f func(t *testing.T)) {
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
