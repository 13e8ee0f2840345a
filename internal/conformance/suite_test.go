package conformance_test

import (
	"io"
	"testing"

	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/conformance"
)

// TestWindow runs the suite on blocked.Window, the first type that holds
// the whole contract, so the suite is itself tested here.
func TestWindow(t *testing.T) {
	conformance.Run(t, conformance.Family[*blocked.Window]{
		Name: "blocked.Window",
		New: func(n uint64, p float64, opts ...engine.Option) (*blocked.Window, error) {
			return blocked.NewWindow(n, p, 4, opts...)
		},
		Decode: blocked.DecodeWindow,
		Read: func(r io.Reader, opts ...engine.Option) (*blocked.Window, error) {
			return blocked.ReadWindow(r, opts...)
		},
	})
}
