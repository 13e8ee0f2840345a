package store_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/store"
	"github.com/filterengine/filterengine/internal/testkit/filetest"
)

// hugeFileFolios reports whether this kernel is expected to keep the
// files under dir in 2 MiB page-cache folios and map them whole: THP not
// "never", Linux 6.16 or later (ext4's large folios), and ext4 or XFS.
func hugeFileFolios(t *testing.T, dir string) bool {
	thp, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(thp), "[never]") {
		t.Logf("THP: %q %v", thp, err)
		return false
	}
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return false
	}
	release := unix.ByteSliceToString(u.Release[:])
	major, rest, _ := strings.Cut(release, ".")
	minor, _, _ := strings.Cut(rest, ".")
	ma, _ := strconv.Atoi(major)
	mi, _ := strconv.Atoi(minor)
	var fs unix.Statfs_t
	if err := unix.Statfs(dir, &fs); err != nil {
		return false
	}
	const ext4, xfs = 0xEF53, 0x58465342
	ok := (ma > 6 || ma == 6 && mi >= 16) && (fs.Type == ext4 || fs.Type == xfs)
	if !ok {
		t.Logf("kernel %s, file system %#x: huge page-cache folios not expected", release, fs.Type)
	}
	return ok
}

// TestOpenPages: a file saved by WriteFile and opened is mapped from a
// 2 MiB boundary, reading it (a checksum, a probe) never copies a page
// into anonymous memory, and where the kernel keeps files in 2 MiB
// folios the mapping gets them whole (FilePmdMapped), both while the
// saved file is still in the page cache and after it has left it.
func TestOpenPages(t *testing.T) {
	const nwords = 3 << 18 // 6 MiB: three 2 MiB regions
	w := make([]uint64, nwords)
	for i := range w {
		w[i] = uint64(i) * 0x9E3779B97F4A7C15
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "f.fe")
	h := store.Header{Family: store.FamilyBlocked, Version: 1, Params: []uint64{nwords, 3}}
	if err := store.WriteFile(path, h, store.WordsPart(w)); err != nil {
		t.Fatal(err)
	}
	huge := hugeFileFolios(t, dir)
	open := func(name string, opts ...engine.Option) {
		m, err := store.OpenEnvelope(path, opts...)
		if err != nil {
			t.Fatal(err)
		}
		st, err := m.Source().Storage(0, 8*nwords, nwords, engine.HugePagesAuto)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		got := st.Words()
		if !st.Mapped() {
			t.Fatalf("%s: the payload was copied", name)
		}
		if start := uintptr(unsafe.Pointer(&got[0])) - store.HeaderSize; start%(2<<20) != 0 {
			t.Fatalf("%s: mapping at %#x, not on a 2 MiB boundary", name, start)
		}
		var sum uint64
		for i := 0; i < len(got); i += 512 {
			sum += got[i]
		}
		p := filetest.PagesAt(unsafe.Pointer(&got[0]))
		t.Logf("%s: %+v (sum %x)", name, p, sum)
		if p.Anon != 0 {
			t.Errorf("%s: reading the mapping made %v MiB of anonymous copies", name, p.Anon)
		}
		if huge && p.FilePmdMapped < 4 {
			t.Errorf("%s: %v MiB mapped as 2 MiB folios, want the file's two whole 2 MiB regions", name, p.FilePmdMapped)
		}
	}
	open("saved, verified", nil...)
	open("saved, without checksum", engine.WithoutChecksum())
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, opts := range [][]engine.Option{nil, {engine.WithoutChecksum()}} {
		// The file is clean (WriteFile synced it) and unmapped, so this
		// drops it from the page cache; the mapping's faults read it back.
		if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
			t.Fatal(err)
		}
		open("evicted", opts...)
	}
}
