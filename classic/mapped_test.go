package classic

import (
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/filetest"
)

func TestOpenViewWriteFile(t *testing.T) {
	filetest.RunMembership(t, func(n uint64) (*Filter, error) { return New(n, 0.01) }, Open, View)
}

func TestWriteFileConcurrent(t *testing.T) {
	filetest.RunConcurrentSave(t, filetest.Concurrent[*Filter]{
		New:       func(n uint64) (*Filter, error) { return New(n, 0.01) },
		AddKey:    (*Filter).AddConcurrent,
		WriteFile: (*Filter).WriteFile,
		Open:      Open,
		Test:      (*Filter).Test,
		Close:     (*Filter).Close,
	})
}

func TestOpenGoldens(t *testing.T) {
	filetest.RunGoldens(t, "testdata/classic-*.golden", Open, filetest.Unmarshal[Filter])
}
