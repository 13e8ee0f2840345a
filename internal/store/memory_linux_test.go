//go:build linux

package store

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/testkit/memlimit"
)

var skipChecksum config.Option = func(c *config.Config) { c.SkipChecksum = true }

// An array the system refuses is an error wrapping ErrMemory in every
// mode, never the runtime's fatal out-of-memory: the child asks for 1 TiB
// and for 1 GiB with 256 MiB of address space left.
func TestNewStorageOutOfMemory(t *testing.T) {
	if !memlimit.Child(t) {
		return
	}
	memlimit.Limit(t, 256<<20)
	for _, mode := range []config.HugePageMode{config.HugePagesAuto, config.HugePagesAlways, config.HugePagesNever} {
		for _, nwords := range []uint64{1 << 37, 1 << 27} {
			s, err := NewStorage(nwords, mode)
			if !errors.Is(err, errs.ErrMemory) {
				t.Errorf("mode %d, %d words: err %v, want ErrMemory", mode, nwords, err)
			}
			if s != nil {
				s.Close()
			}
		}
	}
	// What fits is still had, mapped or not.
	for _, nwords := range []uint64{1 << 10, 1 << 20} {
		s, err := NewStorage(nwords, config.HugePagesAuto)
		if err != nil {
			t.Fatalf("%d words under the cap: %v", nwords, err)
		}
		w := s.Words()
		w[0], w[len(w)-1] = 1, 1
		s.Close()
	}
}

// sparseEnvelope writes an envelope header claiming payload bytes of
// payload and leaves the payload a hole: no disk blocks, no memory until
// read. The checksum field is 0, so only WithoutChecksum opens it.
func sparseEnvelope(t *testing.T, payload int64) string {
	t.Helper()
	hdr, err := encodeHeaderSum(Header{Family: FamilyBlocked, Version: 1, Params: []uint64{uint64(payload / 8), 8}}, 0, uint64(payload))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "huge.flt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(hdr[:]); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(HeaderSize + payload); err != nil {
		t.Skipf("this file system keeps no sparse file of %d GiB: %v", payload>>30, err)
	}
	return path
}

// A file larger than the address space left is an error wrapping
// ErrMemory, whether mapped or read into memory.
func TestOpenEnvelopeOutOfMemory(t *testing.T) {
	if !memlimit.Child(t) {
		return
	}
	path := sparseEnvelope(t, 1<<30)
	memlimit.Limit(t, 256<<20)
	if _, err := OpenEnvelope(path, skipChecksum); !errors.Is(err, errs.ErrMemory) {
		t.Errorf("mapped: err %v, want ErrMemory", err)
	}
	mapper = func(*os.File, int, bool) ([]byte, bool, error) { return nil, false, nil }
	defer func() { mapper = mapFile }()
	if _, err := OpenEnvelope(path, skipChecksum); !errors.Is(err, errs.ErrMemory) {
		t.Errorf("read: err %v, want ErrMemory", err)
	}
}

// memAndSwap returns MemTotal + SwapTotal from /proc/meminfo.
func memAndSwap(t *testing.T) int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	var total int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, _ := strings.Cut(sc.Text(), ":")
		if name == "MemTotal" || name == "SwapTotal" {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			total += kb << 10
		}
	}
	return total
}

// Open WithoutChecksum maps a file larger than memory and swap together:
// the copy-on-write mapping is not charged against the commit limit up
// front, so its size does not matter, and a write copies one page.
func TestOpenLargerThanMemory(t *testing.T) {
	if mode, err := os.ReadFile("/proc/sys/vm/overcommit_memory"); err == nil && strings.TrimSpace(string(mode)) == "2" {
		t.Skip("strict overcommit (vm.overcommit_memory = 2) charges every writable private mapping, MAP_NORESERVE or not")
	}
	payload := (memAndSwap(t) + 8<<30) &^ (1<<20 - 1)
	path := sparseEnvelope(t, payload)
	m, err := OpenEnvelope(path, skipChecksum)
	if err != nil {
		t.Fatalf("Open of a %d GiB file: %v", payload>>30, err)
	}
	defer m.Close()
	if uint64(len(m.payload)) != uint64(payload) {
		t.Fatalf("payload %d bytes, want %d", len(m.payload), payload)
	}
	for _, i := range []int64{0, payload / 2, payload - 1} {
		if m.payload[i] != 0 {
			t.Fatalf("byte %d of the hole is %d", i, m.payload[i])
		}
		m.payload[i] = 0xff // a private copy of one page
	}
	st, err := m.Source().Storage(0, uint64(payload), uint64(payload)/8, config.HugePagesAuto)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Mapped() || st.Words()[0] != 0xff {
		t.Errorf("the storage is not the mapping in place (mapped %v)", st.Mapped())
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	b := make([]byte, 1)
	f, _ := os.Open(path)
	defer f.Close()
	if _, err := f.ReadAt(b, HeaderSize); err != nil || b[0] != 0 || fi.Size() != HeaderSize+payload {
		t.Errorf("the file changed: byte %d, size %d, %v", b[0], fi.Size(), err)
	}
}
