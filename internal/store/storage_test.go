package store

import (
	"testing"
	"unsafe"

	"github.com/filterengine/filterengine/internal/config"
)

func TestStorageAlignment(t *testing.T) {
	for _, mode := range []config.HugePageMode{config.HugePagesNever, config.HugePagesAlways, config.HugePagesAuto} {
		for _, n := range []uint64{0, 1, 7, 8, 9, 1000, 1 << 20} {
			s, err := NewStorage(n, mode)
			if err != nil {
				t.Fatal(err)
			}
			w := s.Words()
			if uint64(len(w)) != n {
				t.Fatalf("mode %d: %d words, want %d", mode, len(w), n)
			}
			if n > 0 && uintptr(unsafe.Pointer(&w[0]))%64 != 0 {
				t.Fatalf("mode %d n=%d: first word not 64-byte aligned", mode, n)
			}
			for i := range w {
				if w[i] != 0 {
					t.Fatalf("word %d not zero", i)
				}
				w[i] = uint64(i) // writable end to end
			}
			if mode == config.HugePagesNever && s.HugePages() {
				t.Error("config.HugePagesNever mapped memory")
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if s.Words() != nil || s.Close() != nil {
				t.Error("Close is not idempotent or left words")
			}
		}
	}
}

func TestStorageAutoThreshold(t *testing.T) {
	small, _ := NewStorage(config.HugePageThreshold/8-1, config.HugePagesAuto)
	large, _ := NewStorage(config.HugePageThreshold/8, config.HugePagesAuto)
	defer small.Close()
	defer large.Close()
	if small.HugePages() {
		t.Error("an array below the threshold was mapped")
	}
	if !large.HugePages() && hugePagesSupported {
		t.Error("an array at the threshold stayed on the heap")
	}
}

func TestStorageTooLarge(t *testing.T) {
	if _, err := NewStorage(1<<62, config.HugePagesNever); err == nil {
		t.Error("NewStorage accepted 2^62 words")
	}
}

// Placement names where NewStorage put the array, by the same rule
// HugePages and the mapping follow, and a closed or nil Storage as none.
func TestStoragePlacement(t *testing.T) {
	large := uint64(config.HugePageThreshold / 8)
	cases := []struct {
		n    uint64
		mode config.HugePageMode
		want string
	}{
		{8, config.HugePagesAuto, "heap"},
		{large - 1, config.HugePagesAuto, "heap"},
		{large, config.HugePagesNever, "mapped"},
		{large, config.HugePagesAuto, "huge pages"},
	}
	for _, c := range cases {
		s, err := NewStorage(c.n, c.mode)
		if err != nil {
			t.Fatal(err)
		}
		want := c.want
		if !canMap {
			want = "heap"
		} else if want == "huge pages" && !s.HugePages() {
			want = "mapped" // the system gave no huge pages
		}
		if got := s.Placement(); got != want {
			t.Errorf("%d words, mode %d: Placement %q, want %q", c.n, c.mode, got, want)
		}
		_ = s.Close()
		if got := s.Placement(); got != "none" {
			t.Errorf("closed: Placement %q, want none", got)
		}
	}
	if got := (*Storage)(nil).Placement(); got != "none" {
		t.Errorf("nil Storage: Placement %q", got)
	}
}
