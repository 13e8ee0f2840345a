package store_test

import (
	"os"
	"strings"
	"testing"
	"unsafe"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/store"
	"github.com/filterengine/filterengine/internal/testkit/filetest"
)

// An array above the threshold gets huge pages for its whole 2 MiB pages
// and 4 KiB pages for the rest: the tail is never padded to a huge page
// that the filter would hold but not use.
func TestStorageHugePagesNoTail(t *testing.T) {
	const nbytes = 5<<20 + 100<<10 // two whole 2 MiB pages and a 1.1 MiB tail
	s, err := store.NewStorage(nbytes/8, engine.HugePagesAuto)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.HugePages() {
		t.Fatal("a 5.1 MiB array stayed on the heap")
	}
	w := s.Words()
	for i := range w {
		w[i] = uint64(i)
	}
	head := filetest.PagesAt(unsafe.Pointer(&w[0]))
	tail := filetest.PagesAt(unsafe.Pointer(&w[len(w)-1]))
	t.Logf("head %+v, tail %+v", head, tail)
	if tail.AnonHuge != 0 {
		t.Errorf("the 1.1 MiB tail holds %v MiB of huge pages", tail.AnonHuge)
	}
	if mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err == nil &&
		!strings.Contains(string(mode), "[never]") && head.AnonHuge == 0 {
		// Not an error: the kernel may find no free 2 MiB page.
		t.Logf("THP is %q but the head got no huge page", strings.TrimSpace(string(mode)))
	}
}
