// Package memlimit runs a test in a child process whose address space is
// limited, so that a test can ask for more memory than it may have and
// check that it gets an error and not the Go runtime's fatal
// out-of-memory, which kills the process whatever recovers.
//
// A top-level test calls Child: in the parent it re-runs that one test in
// a child of the test binary and reports the child's verdict; in the
// child it returns true, and the test sets the limit (Limit) and asks.
package memlimit

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

const envVar = "FILTERENGINE_MEMLIMIT_CHILD"

// Child reports whether the calling test runs in the limited child. In
// the parent it runs the test (t must be a top-level test) in a child
// process, fails t with the child's output if the child failed, skips t
// where the limit cannot be set (off Linux, under the race detector,
// whose shadow memory needs terabytes of address space), and returns
// false.
func Child(t *testing.T) bool {
	t.Helper()
	if os.Getenv(envVar) == t.Name() {
		return true
	}
	if !supported {
		t.Skip("no address-space limit here (Linux without the race detector only)")
	}
	if strings.Contains(t.Name(), "/") {
		t.Fatal("memlimit.Child in a subtest: call it from a top-level test")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), envVar+"="+t.Name())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the limited child failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("the limited child did not pass %s:\n%s", t.Name(), out)
	}
	t.Logf("limited child:\n%s", out)
	return false
}
