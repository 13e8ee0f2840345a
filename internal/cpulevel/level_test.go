package cpulevel

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, l := range []Level{Generic, AVX2, AVX512} {
		got, err := Parse(l.String())
		if err != nil || got != l {
			t.Errorf("Parse(%q) = %v, %v", l.String(), got, err)
		}
	}
	if _, err := Parse("sse9"); err == nil {
		t.Error("Parse accepted an unknown kernel name")
	}
}

// FILTERENGINE_KERNEL caps the level; it never raises it.
func TestCapped(t *testing.T) {
	for _, c := range []struct {
		best Level
		env  string
		want Level
	}{{AVX512, "", AVX512}, {AVX512, "avx2", AVX2}, {AVX2, "avx512", AVX2}, {AVX512, " Generic ", Generic}} {
		if got := capped(c.best, c.env); got != c.want {
			t.Errorf("capped(%v, %q) = %v, want %v", c.best, c.env, got, c.want)
		}
	}
}

func TestUse(t *testing.T) {
	for _, l := range Available() {
		restore, err := Use(l)
		if err != nil {
			t.Fatal(err)
		}
		if Current() != l {
			t.Errorf("Use(%v) left %v", l, Current())
		}
		restore()
	}
	if best < AVX512 {
		if _, err := Use(best + 1); err == nil {
			t.Errorf("Use(%v) accepted a level above the CPU's %v", best+1, best)
		}
	}
}

// An unknown FILTERENGINE_KERNEL stops the program at start-up with a
// message naming the value, rather than being ignored.
func TestUnknownKernelStops(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a subprocess")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestParse$")
	cmd.Env = append(os.Environ(), Env+"=sse9")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("a process with %s=sse9 ran:\n%s", Env, out)
	}
	if !strings.Contains(string(out), `unknown kernel "sse9"`) {
		t.Fatalf("the failure does not name the bad value:\n%s", out)
	}
}
