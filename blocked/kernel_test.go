package blocked

import (
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

// TestKernel proves the run used the kernel make test asked for.
func TestKernel(t *testing.T) { kerneltest.RequireKernel(t) }
