package classic

import (
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/filetest"
	"github.com/filterengine/filterengine/internal/testkit/keyforms"
)

func TestKeyForms(t *testing.T) {
	keyforms.Family(t, New, filetest.Unmarshal[Filter])
}
