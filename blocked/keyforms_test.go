package blocked

import (
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/keyforms"
)

func TestKeyForms(t *testing.T) {
	keyforms.Family(t, New, func(data []byte) (*Filter, error) { return Decode(data) })
}
