package asm

import (
	"testing"

	"github.com/filterengine/filterengine/internal/cpulevel"
	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

// TestRequireKernel fails a run that claims a kernel level
// (FILTERENGINE_REQUIRE_KERNEL) and did not select it.
func TestRequireKernel(t *testing.T) { kerneltest.RequireKernel(t) }

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
func forEachLevel(t *testing.T, f func(t *testing.T)) { kerneltest.ForEachLevel(t, f) }
