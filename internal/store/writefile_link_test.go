package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// WriteFile onto a symbolic link replaces the file the link points to and
// leaves the link a link: through a chain of links, a relative link into
// another directory, and a dangling link, whose target it creates.
func TestWriteFileThroughSymlink(t *testing.T) {
	h, w, _, data := testEnvelope(t, 9, 0)
	root := t.TempDir()
	store, links := filepath.Join(root, "store"), filepath.Join(root, "links")
	for _, d := range []string{store, links} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	target := filepath.Join(store, "v1.flt")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustLink := func(old, name string) string {
		t.Helper()
		p := filepath.Join(links, name)
		if err := os.Symlink(old, p); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
		return p
	}
	rel := mustLink("../store/v1.flt", "current.flt")
	chain := mustLink("current.flt", "latest.flt")
	dangling := mustLink(filepath.Join(store, "v2.flt"), "next.flt")

	for _, link := range []string{rel, chain} {
		if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := WriteFile(link, h, WordsPart(w)); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(target); !bytes.Equal(got, data) {
			t.Errorf("%s: the link's target was not replaced", filepath.Base(link))
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link", filepath.Base(link))
		}
	}
	if err := WriteFile(dangling, h, WordsPart(w)); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(store, "v2.flt")); !bytes.Equal(got, data) {
		t.Error("a dangling link's target was not created")
	}
	if fi, err := os.Lstat(dangling); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the dangling link was replaced")
	}
	for _, d := range []string{store, links} {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			if e.Name()[0] == '.' {
				t.Errorf("temporary file %s left in %s", e.Name(), d)
			}
		}
	}
	loop := mustLink("loop.flt", "loop.flt")
	if err := WriteFile(loop, h, WordsPart(w)); !errors.Is(err, syscall.ELOOP) {
		t.Errorf("a link to itself: err %v, want ELOOP", err)
	}
}
