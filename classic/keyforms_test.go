package classic

import (
	"testing"

	"github.com/filterengine/filterengine/internal/keyforms"
)

func TestKeyForms(t *testing.T) {
	keyforms.Family(t, New, func(data []byte) (*Filter, error) {
		var g Filter
		return &g, g.UnmarshalBinary(data)
	})
}
