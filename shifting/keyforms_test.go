package shifting

import (
	"testing"

	"github.com/filterengine/filterengine/internal/filetest"
	"github.com/filterengine/filterengine/internal/keyforms"
)

func TestKeyForms(t *testing.T) {
	keyforms.Family(t, New, filetest.Unmarshal[Filter])
}
