package asm

import (
	"fmt"
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

// forEachGroupForm is forEachLevel with the avx512 level run once per
// form of the grouped kernels (groupForms).
func forEachGroupForm(t *testing.T, f func(t *testing.T)) {
	forEachLevel(t, func(t *testing.T) {
		forms := groupForms()
		if len(forms) == 1 {
			f(t)
			return
		}
		for _, vbmi := range forms {
			t.Run(fmt.Sprintf("vbmi=%v", vbmi), func(t *testing.T) { withVBMI(vbmi, func() { f(t) }) })
		}
	})
}

// groupForms lists the forms of the grouped kernels the level in use
// can run (groupFormsAt).
func groupForms() []bool { return groupFormsAt(level) }

// groupFormsAt lists the values of blockedVBMI that make a difference at
// level l: at avx512 on a CPU with AVX-512 VBMI the VBMI form and the
// other, else the one form l has.
func groupFormsAt(l cpulevel.Level) []bool {
	if l == avx512 && cpulevel.VBMI() {
		return []bool{true, false}
	}
	return []bool{blockedVBMI}
}

// eachFarHint runs f with the grouped kernels' far prefetches into L2
// and again into L1 where words is large enough for them to prefetch
// (prefetchBytes), else once: both loops have to answer alike.
func eachFarHint(words []uint64, f func()) {
	if !prefetchBytesOf(words) {
		f()
		return
	}
	for _, l1 := range []bool{false, true} {
		withChoice(&blockedFarL1, l1, f)
	}
}

// withVBMI runs f with the grouped kernels' VBMI form on or off.
func withVBMI(vbmi bool, f func()) { withChoice(&blockedVBMI, vbmi, f) }

// withChoice runs f with one of asm's run-time kernel choices set to v,
// and restores it.
func withChoice(choice *bool, v bool, f func()) {
	defer func(old bool) { *choice = old }(*choice)
	*choice = v
	f()
}
