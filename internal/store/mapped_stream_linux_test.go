package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
)

// A file that is no regular file (a pipe, a device) is read, not mapped:
// its header first, then exactly the payload the header claims. A pipe
// with an envelope opens; one with bytes after it, and /dev/zero, whose
// first bytes are no header, are rejected at once (before, the stream
// was read to its end before any check: /dev/zero never ended).
func TestOpenEnvelopeStream(t *testing.T) {
	_, w, _, data := testEnvelope(t, 513, 0)
	for _, c := range []struct {
		name  string
		bytes []byte
		ok    bool
	}{{"envelope", data, true}, {"envelope and more", append(append([]byte(nil), data...), 1), false}} {
		path := filepath.Join(t.TempDir(), "fifo")
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		go func() {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			_, _ = f.Write(c.bytes)
			_ = f.Close()
		}()
		m, err := OpenEnvelope(path)
		if !c.ok {
			if !errors.Is(err, errs.ErrFormat) {
				t.Errorf("%s: %v, want a format error", c.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		n := uint64(len(w))
		st, err := m.Source().Storage(0, 8*n, n, config.HugePagesNever)
		if err != nil || st.Words()[len(w)-1] != w[len(w)-1] {
			t.Fatalf("%s: the payload read from a pipe: %v", c.name, err)
		}
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if _, err := OpenEnvelope("/dev/zero"); !errors.Is(err, errs.ErrFormat) {
			t.Errorf("/dev/zero: %v, want a format error", err)
		}
	}
}

// An OpenEnvelope whose payload no Storage takes over holds its mapping
// until Close, or until it becomes garbage: 200 opens left 400 entries
// in /proc/self/maps before the cleanup.
func TestOpenEnvelopeUnmapsUntaken(t *testing.T) {
	_, _, _, data := testEnvelope(t, 4096, 0)
	path := writeTemp(t, data)
	maps := func() int {
		b, err := os.ReadFile("/proc/self/maps")
		if err != nil {
			t.Skip(err)
		}
		return bytes.Count(b, []byte(path))
	}
	probe, err := OpenEnvelope(path)
	if err != nil {
		t.Fatal(err)
	}
	if maps() == 0 {
		t.Skip("the file was read into memory, not mapped")
	}
	runtime.KeepAlive(probe)
	for i := range 100 {
		m, err := OpenEnvelope(path)
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			_ = m.Close()
			_ = m.Close() // a second Close does nothing
		}
	}
	// Cleanups run on their own goroutines after a collection: poll until
	// they have, however long a loaded machine takes; only a bound far
	// beyond any scheduling delay (30 s of polls) judges them missing.
	for try := 0; maps() != 0; try++ {
		if try == 3000 {
			t.Fatalf("%d mappings of %s left after Close and 3000 collections", maps(), path)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}
