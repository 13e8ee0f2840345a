package blocked

import (
	"testing"

	"github.com/filterengine/filterengine/internal/filetest"
)

func TestOpenViewWriteFile(t *testing.T) {
	filetest.RunMembership(t, func(n uint64) (*Filter, error) { return New(n, 0.01) }, Open, View)
}
