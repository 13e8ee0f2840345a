package asm

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// EnvRequireKernel names the kernel a test run must have selected; CI sets
// it beside FILTERENGINE_KERNEL so a run that claims a SIMD path proves it.
const EnvRequireKernel = "FILTERENGINE_REQUIRE_KERNEL"

// TestRequireKernel is kerneltest.RequireKernel for this package, which
// that helper cannot import: reading both variables here keys go test's
// cache on them.
func TestRequireKernel(t *testing.T) {
	_ = os.Getenv(EnvKernel)
	want, ok := os.LookupEnv(EnvRequireKernel)
	if !ok || want == "" {
		t.Skipf("%s not set; kernel in use: %s", EnvRequireKernel, Kernel())
	}
	l, err := ParseLevel(want)
	if err != nil {
		t.Fatal(err)
	}
	if Current() != l {
		t.Fatalf("%s=%s but the kernel in use is %s (best available %s)", EnvRequireKernel, want, Kernel(), best)
	}
}

func TestParseLevel(t *testing.T) {
	for _, l := range []Level{Generic, AVX2, AVX512} {
		got, err := ParseLevel(l.String())
		if err != nil || got != l {
			t.Errorf("ParseLevel(%q) = %v, %v", l.String(), got, err)
		}
	}
	if _, err := ParseLevel("sse9"); err == nil {
		t.Error("ParseLevel accepted an unknown kernel name")
	}
}

func TestUseLevel(t *testing.T) {
	for _, l := range Available() {
		restore, err := UseLevel(l)
		if err != nil {
			t.Fatal(err)
		}
		if Current() != l {
			t.Errorf("UseLevel(%v) left %v", l, Current())
		}
		restore()
	}
	if best < AVX512 {
		if _, err := UseLevel(best + 1); err == nil {
			t.Errorf("UseLevel(%v) accepted a level above the CPU's %v", best+1, best)
		}
	}
}

// forEachLevel runs f once per available kernel level as a subtest.
func forEachLevel(t *testing.T, f func(t *testing.T)) {
	for _, l := range Available() {
		t.Run(l.String(), func(t *testing.T) {
			restore, err := UseLevel(l)
			if err != nil {
				t.Fatal(err)
			}
			defer restore()
			f(t)
		})
	}
}

// An unknown FILTERENGINE_KERNEL stops the program at start-up with a
// message naming the value, rather than being ignored.
func TestUnknownKernelStops(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a subprocess")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestParseLevel$")
	cmd.Env = append(os.Environ(), EnvKernel+"=sse9")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("a process with %s=sse9 ran:\n%s", EnvKernel, out)
	}
	if !strings.Contains(string(out), `unknown kernel "sse9"`) {
		t.Fatalf("the failure does not name the bad value:\n%s", out)
	}
}
