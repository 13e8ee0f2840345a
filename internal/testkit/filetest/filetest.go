// Package filetest is the one suite every family's Open, View and
// WriteFile pass: saved and mapped filters answer as decoded ones, every
// truncation and corruption is an error at Open, writes to an opened
// filter never reach its file. Only _test files import it.
package filetest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/store"
)

// Family describes one filter type to the suite. F is the filter's
// pointer type.
type Family[F any] struct {
	// Build returns a filter holding the keys.
	Build func(t testing.TB, keys [][]byte) F
	// Answer returns the filter's answer for each key as an int (test
	// true/false as 1/0, a count, an area).
	Answer func(f F, keys [][]byte) []int
	// Write adds the keys (a write to an opened filter).
	Write func(f F, keys [][]byte)

	Marshal   func(f F) ([]byte, error)
	Decode    func(data []byte) (F, error)
	WriteFile func(f F, path string) error
	Open      func(path string, opts ...engine.Option) (F, error)
	View      func(data []byte, opts ...engine.Option) (F, error)
	Close     func(f F) error
}

// Keys returns n distinct keys of 1 to 40 bytes from a seeded generator.
func Keys(seed uint64, n int) [][]byte {
	r := rand.New(rand.NewPCG(seed, 77))
	out := make([][]byte, n)
	for i := range out {
		k := make([]byte, 8+r.IntN(33))
		binary.LittleEndian.PutUint64(k, seed<<40|uint64(i))
		for j := 8; j < len(k); j++ {
			k[j] = byte(r.Uint32())
		}
		out[i] = k[:1+r.IntN(len(k))]
		if len(out[i]) < 8 {
			out[i] = k[:8]
		}
	}
	return out
}

// Bits is an Answer for membership filters: bit 0 is the single-key
// test, bit 1 the batch answer, so the suite also compares the kernels.
func Bits(keys [][]byte, batch []bool, test func([]byte) bool) []int {
	out := make([]int, len(keys))
	for i, k := range keys {
		if test(k) {
			out[i] |= 1
		}
		if batch[i] {
			out[i] |= 2
		}
	}
	return out
}

// Run checks fam's Open, View and WriteFile against its Decode.
func Run[F any](t *testing.T, fam Family[F]) {
	members, absent := Keys(1, 3000), Keys(2, 3000)
	probe := append(slices.Clone(members), absent...)
	f := fam.Build(t, members)
	data, err := fam.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := fam.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	want := fam.Answer(dec, probe)
	for i, a := range want[:len(members)] {
		if a == 0 {
			t.Fatalf("member %d absent after Decode", i)
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "filter.fe")
	if err := fam.WriteFile(f, path); err != nil {
		t.Fatal(err)
	}
	saved, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(saved, data) {
		t.Fatal("WriteFile wrote other bytes than MarshalBinary")
	}

	t.Run("OpenAnswersAsDecode", func(t *testing.T) {
		for _, opts := range [][]engine.Option{nil, {engine.WithoutChecksum()}} {
			g, err := fam.Open(path, opts...)
			if err != nil {
				t.Fatal(err)
			}
			if got := fam.Answer(g, probe); !slices.Equal(got, want) {
				t.Fatalf("opened filter answers differently from the decoded one (opts %d)", len(opts))
			}
			if err := fam.Close(g); err != nil {
				t.Fatal(err)
			}
		}
	})

	t.Run("ViewAnswersAsDecode", func(t *testing.T) {
		aligned := alignedCopy(data, 0)
		shifted := alignedCopy(data, 1)
		for _, d := range [][]byte{aligned, shifted} {
			g, err := fam.View(d)
			if err != nil {
				t.Fatal(err)
			}
			if got := fam.Answer(g, probe); !slices.Equal(got, want) {
				t.Fatal("viewed filter answers differently from the decoded one")
			}
		}
		bad := bytes.Clone(aligned)
		bad[len(bad)-1] ^= 0x40
		if _, err := fam.View(bad); !errors.Is(err, engine.ErrFormat) {
			t.Fatalf("view of a corrupted payload: %v", err)
		}
	})

	t.Run("WritesStayOutOfTheFile", func(t *testing.T) {
		g, err := fam.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		extra := Keys(3, 2000)
		fam.Write(g, extra)
		for i, a := range fam.Answer(g, append(slices.Clone(members), extra...)) {
			if a == 0 {
				t.Fatalf("key %d absent after a write to the opened filter", i)
			}
		}
		if onDisk, _ := os.ReadFile(path); !bytes.Equal(onDisk, data) {
			t.Fatal("a write to the opened filter changed the file")
		}
		if err := fam.Close(g); err != nil {
			t.Fatal(err)
		}
		h, err := fam.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fam.Answer(h, probe); !slices.Equal(got, want) {
			t.Fatal("reopened filter answers differently after writes to another opening")
		}
	})

	t.Run("TruncationAndCorruptionRejected", func(t *testing.T) {
		bad := filepath.Join(dir, "bad.fe")
		r := rand.New(rand.NewPCG(5, 6))
		var cuts []int
		for n := 0; n <= store.HeaderSize+8 && n < len(data); n++ {
			cuts = append(cuts, n)
		}
		for range 64 {
			cuts = append(cuts, r.IntN(len(data)))
		}
		cuts = append(cuts, len(data)-1)
		for _, n := range cuts {
			write(t, bad, data[:n])
			for _, opts := range [][]engine.Option{nil, {engine.WithoutChecksum()}} {
				if _, err := fam.Open(bad, opts...); !errors.Is(err, engine.ErrFormat) {
					t.Fatalf("file cut to %d of %d bytes: %v", n, len(data), err)
				}
			}
		}
		var at []int
		for i := range store.HeaderSize {
			at = append(at, i)
		}
		for range 128 {
			at = append(at, store.HeaderSize+r.IntN(len(data)-store.HeaderSize))
		}
		for _, i := range at {
			b := bytes.Clone(data)
			b[i] ^= 1 << r.IntN(8)
			write(t, bad, b)
			if _, err := fam.Open(bad); !errors.Is(err, engine.ErrFormat) {
				t.Fatalf("byte %d of %d changed: %v", i, len(data), err)
			}
		}
		longer := append(bytes.Clone(data), 0)
		write(t, bad, longer)
		if _, err := fam.Open(bad); !errors.Is(err, engine.ErrFormat) {
			t.Fatalf("a byte appended: %v", err)
		}
		foreign, _ := store.AppendEnvelope(nil, store.Header{Family: store.Family(999), Version: 1}, make([]byte, 64))
		write(t, bad, foreign)
		if _, err := fam.Open(bad); !errors.Is(err, engine.ErrFormat) {
			t.Fatalf("a file of another family: %v", err)
		}
	})
}

func write(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// alignedCopy returns a copy of b starting off bytes past an 8-byte
// boundary.
func alignedCopy(b []byte, off int) []byte {
	w := make([]uint64, (len(b)+off)/8+1)
	all := unsafeBytes(w)
	copy(all[off:], b)
	return all[off : off+len(b)]
}

// Membership is what RunMembership needs of a membership filter.
type Membership[T any] interface {
	*T
	AddKeys(keys [][]byte)
	Test(key []byte) bool
	TestKeys(keys [][]byte, out []bool) int
	MarshalBinary() ([]byte, error)
	UnmarshalBinary(data []byte) error
	WriteFile(path string) error
	Close() error
}

// RunMembership is Run for a membership family: newFilter makes a filter
// for n keys, open and view are the family's Open and View.
func RunMembership[T any, F Membership[T]](t *testing.T, newFilter func(n uint64) (F, error),
	open func(string, ...engine.Option) (F, error), view func([]byte, ...engine.Option) (F, error)) {
	Run(t, Family[F]{
		Build: func(t testing.TB, keys [][]byte) F {
			f, err := newFilter(uint64(len(keys)))
			if err != nil {
				t.Fatal(err)
			}
			f.AddKeys(keys)
			return f
		},
		Answer: func(f F, keys [][]byte) []int {
			batch := make([]bool, len(keys))
			f.TestKeys(keys, batch)
			return Bits(keys, batch, f.Test)
		},
		Write:     func(f F, keys [][]byte) { f.AddKeys(keys) },
		Marshal:   func(f F) ([]byte, error) { return f.MarshalBinary() },
		Decode:    func(d []byte) (F, error) { f := F(new(T)); return f, f.UnmarshalBinary(d) },
		WriteFile: func(f F, path string) error { return f.WriteFile(path) },
		Open:      open,
		View:      view,
		Close:     func(f F) error { return f.Close() },
	})
}

// Unmarshal is Decode for a family that has only UnmarshalBinary:
// Unmarshal[Filter] decodes data into a new *Filter.
func Unmarshal[T any, P interface {
	*T
	UnmarshalBinary(data []byte) error
}](data []byte) (P, error) {
	p := P(new(T))
	return p, p.UnmarshalBinary(data)
}
