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
