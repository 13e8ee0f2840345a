package store

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
)

// testEnvelope returns an envelope whose payload is nwords random words
// followed by extra random bytes.
func testEnvelope(t testing.TB, nwords, extra int) (Header, []uint64, []byte, []byte) {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(nwords), uint64(extra)))
	w := make([]uint64, nwords)
	for i := range w {
		w[i] = r.Uint64()
	}
	tail := make([]byte, extra)
	for i := range tail {
		tail[i] = byte(r.Uint32())
	}
	h := Header{Family: FamilyBlocked, Version: 1, Seed: 7, Params: []uint64{uint64(nwords), 3}}
	data, err := AppendEnvelope(nil, h, WordsBytes(w), tail)
	if err != nil {
		t.Fatal(err)
	}
	return h, w, tail, data
}

func writeTemp(t testing.TB, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.fe")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOpenEnvelopeInPlace: the payload's words are used where the file
// lies, a write to them stays private (the file keeps its bytes, another
// Open sees the old words), and the bytes after the payload read as
// zero up to MapTail.
func TestOpenEnvelopeInPlace(t *testing.T) {
	for _, nwords := range []int{1, 511, 512, 513, 100_000} {
		h, w, _, data := testEnvelope(t, nwords, 0)
		path := writeTemp(t, data)
		for _, opts := range [][]config.Option{nil, {config.Option(func(c *config.Config) { c.SkipChecksum = true })}} {
			m, err := OpenEnvelope(path, opts...)
			if err != nil {
				t.Fatal(err)
			}
			if m.Header.Seed != h.Seed || m.Header.Params[0] != uint64(nwords) {
				t.Fatalf("header %+v", m.Header)
			}
			src := m.Source()
			if !src.InPlace() {
				t.Fatal("an opened file is not in place")
			}
			st, err := src.Storage(0, uint64(8*nwords), uint64(nwords+MapTail/8), config.HugePagesNever)
			if err != nil {
				t.Fatal(err)
			}
			_ = m.Close()
			if runtime.GOOS == "linux" && !st.Mapped() {
				t.Fatal("storage of an opened file is not the mapping")
			}
			got := st.Words()
			for i, v := range w {
				if got[i] != v {
					t.Fatalf("%d words: word %d = %#x, want %#x", nwords, i, got[i], v)
				}
			}
			for i := nwords; i < len(got); i++ {
				if got[i] != 0 {
					t.Fatalf("%d words: tail word %d = %#x, want 0", nwords, i, got[i])
				}
			}
			got[0] ^= 1
			got[nwords-1] = ^got[nwords-1]
			if onDisk, _ := os.ReadFile(path); !bytes.Equal(onDisk, data) {
				t.Fatal("a write to the opened filter reached the file")
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestOpenEnvelopeRejects: every truncation and every single-byte change
// of a file is an error at Open (header bytes even WithoutChecksum), and
// a missing file is the os error.
func TestOpenEnvelopeRejects(t *testing.T) {
	_, _, _, data := testEnvelope(t, 16, 5)
	dir := t.TempDir()
	path := filepath.Join(dir, "x")
	for n := 0; n < len(data); n++ {
		if err := os.WriteFile(path, data[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		for _, opts := range [][]config.Option{nil, {config.Option(func(c *config.Config) { c.SkipChecksum = true })}} {
			if _, err := OpenEnvelope(path, opts...); !errors.Is(err, errs.ErrFormat) {
				t.Fatalf("truncated to %d of %d bytes: %v", n, len(data), err)
			}
		}
	}
	for i := range data {
		bad := bytes.Clone(data)
		bad[i] ^= 0x10
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := OpenEnvelope(path); !errors.Is(err, errs.ErrFormat) {
			t.Fatalf("byte %d changed: %v", i, err)
		}
		if _, err := OpenEnvelope(path, config.Option(func(c *config.Config) { c.SkipChecksum = true })); i < HeaderSize && !errors.Is(err, errs.ErrFormat) {
			t.Fatalf("header byte %d changed, without checksum: %v", i, err)
		}
	}
	if _, err := OpenEnvelope(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	if _, err := OpenEnvelope(dir); err == nil {
		t.Fatal("a directory opened")
	}
}

// TestViewEnvelope: an 8-byte aligned payload is used in place (a write
// shows in the caller's bytes); a misaligned one, or one whose family
// would read past its end, is copied.
func TestViewEnvelope(t *testing.T) {
	_, w, _, data := testEnvelope(t, 64, 0)
	m, err := ViewEnvelope(data)
	if err != nil {
		t.Fatal(err)
	}
	st, err := m.Source().Storage(0, 8*64, 64, config.HugePagesNever)
	if err != nil {
		t.Fatal(err)
	}
	if littleEndian && unsafe.SliceData(st.Words()) != (*uint64)(unsafe.Pointer(&data[HeaderSize])) {
		t.Fatal("aligned view copied")
	}
	// The first in-place Storage took the bytes: a second one copies them.
	if st2, err := m.Source().Storage(0, 8*64, 64, config.HugePagesNever); err != nil ||
		unsafe.SliceData(st2.Words()) == unsafe.SliceData(st.Words()) || st2.Words()[63] != w[63] {
		t.Fatalf("a second Storage of one view: %v, shares the first's words or differs from them", err)
	}
	past, _ := ViewEnvelope(data)
	if st2, _ := past.Source().Storage(0, 8*64, 65, config.HugePagesNever); unsafe.SliceData(st2.Words()) == (*uint64)(unsafe.Pointer(&data[HeaderSize])) {
		t.Fatal("a view read past the caller's bytes")
	}
	shifted := make([]byte, len(data)+1)
	copy(shifted[1:], data)
	mis, err := ViewEnvelope(shifted[1:])
	if err != nil {
		t.Fatal(err)
	}
	st3, err := mis.Source().Storage(0, 8*64, 64, config.HugePagesNever)
	if err != nil {
		t.Fatal(err)
	}
	if unsafe.SliceData(st3.Words()) == (*uint64)(unsafe.Pointer(&shifted[1+HeaderSize])) {
		t.Fatal("misaligned view used in place")
	}
	for i, v := range w {
		if st3.Words()[i] != v {
			t.Fatalf("copied word %d = %#x, want %#x", i, st3.Words()[i], v)
		}
	}
	bad := bytes.Clone(data)
	bad[len(bad)-1] ^= 1
	if _, err := ViewEnvelope(bad); !errors.Is(err, errs.ErrFormat) {
		t.Fatalf("corrupted view: %v", err)
	}
	if _, err := ViewEnvelope(bad, config.Option(func(c *config.Config) { c.SkipChecksum = true })); err != nil {
		t.Fatalf("corrupted payload without checksum: %v", err)
	}
}

// TestCopySourcePartialWord: a payload whose words end in a partial word
// is copied with the missing bytes zero.
func TestCopySourcePartialWord(t *testing.T) {
	src := CopySource([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
	st, err := src.Storage(1, 10, 3, config.HugePagesNever)
	if err != nil {
		t.Fatal(err)
	}
	want := []uint64{0x0908070605040302, 0x0b0a, 0}
	for i, v := range want {
		if st.Words()[i] != v {
			t.Fatalf("word %d = %#x, want %#x", i, st.Words()[i], v)
		}
	}
}

// TestWriteFileRoundTrip: WriteFile's bytes are AppendEnvelope's, from
// bytes and from atomically read words, across the staging buffer's
// boundary, and no temporary file is left behind.
func TestWriteFileRoundTrip(t *testing.T) {
	for _, nwords := range []int{0, 1, saveChunk/8 - 1, saveChunk / 8, saveChunk/8 + 3} {
		h, w, tail, data := testEnvelope(t, nwords, 13)
		dir := t.TempDir()
		path := filepath.Join(dir, "f.fe")
		if err := WriteFile(path, h, WordsPart(w), BytesPart(tail)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, data) {
			t.Fatalf("%d words: WriteFile wrote other bytes than AppendEnvelope", nwords)
		}
		if err := WriteFile(path, h, BytesPart(WordsBytes(w)), BytesPart(tail)); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
			t.Fatalf("%d words: overwrite differs", nwords)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			t.Fatalf("%d entries left in the directory", len(ents))
		}
	}
	if err := WriteFile(filepath.Join(t.TempDir(), "no", "such", "dir"), Header{}); err == nil {
		t.Fatal("WriteFile into a missing directory succeeded")
	}
}

// TestOpenEnvelopeReadFallback: where a file cannot be mapped it is read
// into aligned memory with a zero tail and still used in place, with the
// same checks.
func TestOpenEnvelopeReadFallback(t *testing.T) {
	defer func(m func(*os.File, int, bool) ([]byte, bool, error)) { mapper = m }(mapper)
	mapper = func(*os.File, int, bool) ([]byte, bool, error) { return nil, false, nil }
	_, w, _, data := testEnvelope(t, 100, 0)
	path := writeTemp(t, data)
	m, err := OpenEnvelope(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := m.Source().Storage(0, 800, 100+MapTail/8, config.HugePagesNever)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mapped() {
		t.Fatal("read fallback reports a mapping")
	}
	for i, v := range w {
		if st.Words()[i] != v {
			t.Fatalf("word %d = %#x, want %#x", i, st.Words()[i], v)
		}
	}
	for _, v := range st.Words()[100:] {
		if v != 0 {
			t.Fatal("tail not zero")
		}
	}
	if err := os.WriteFile(path, data[:len(data)-1], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenEnvelope(path); !errors.Is(err, errs.ErrFormat) {
		t.Fatalf("truncated file read: %v", err)
	}
}

// A name as long as the file system allows saves: the temporary file's
// name keeps only the first tempBase bytes of it (it was the name plus
// 16 bytes, too long from 240 bytes on).
func TestWriteFileLongName(t *testing.T) {
	h, w, _, data := testEnvelope(t, 8, 0)
	dir := t.TempDir()
	for _, n := range []int{1, 200, 239, 240, 255} {
		path := filepath.Join(dir, strings.Repeat("f", n))
		if err := WriteFile(path, h, WordsPart(w)); err != nil {
			t.Fatalf("a %d-byte name: %v", n, err)
		}
		if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, data) {
			t.Fatalf("a %d-byte name: read back %v", n, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 5 {
		t.Errorf("%d files left in the directory, want the 5 saved", len(ents))
	}
}
