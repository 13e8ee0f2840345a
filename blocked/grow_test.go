package blocked

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/fuzzenv"
	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

// multi is what Scalable and Window share with the tests.
type multi interface {
	engine.Filter
	AddUint64(k uint64)
	TestUint64(k uint64) bool
	AddString(s string)
	TestString(s string) bool
	TestAndAdd(key []byte) bool
	Seed() uint64
	String() string
	SizeBytes() uint64
	MarshalText() ([]byte, error)
	UnmarshalText(text []byte) error
}

// addMultiHow is the number of add paths addMulti knows.
const addMultiHow = 7

// addMulti adds ks through one of the add paths, chosen by how; batch
// paths go in pieces of the tail lengths.
func addMulti(f multi, how int, ks []uint64) {
	for i := 0; len(ks) > 0; i++ {
		c := min(len(ks), kerneltest.BatchLengths[i%len(kerneltest.BatchLengths)])
		part := ks[:c]
		ks = ks[c:]
		switch how {
		case 0:
			for _, k := range part {
				f.Add(keyBytes(k))
			}
		case 1:
			for _, k := range part {
				f.AddHash(engine.HashUint64Seed(k, f.Seed()))
			}
		case 2:
			hs := make([]uint64, len(part))
			asm.HashUint64s(hs, part, f.Seed())
			f.AddHashes(hs)
		case 3:
			f.AddUint64s(part)
		case 4:
			keys := make([][]byte, len(part))
			for i, k := range part {
				keys[i] = keyBytes(k)
			}
			f.AddKeys(keys)
		case 5:
			for _, k := range part {
				f.AddUint64(k)
			}
		case 6:
			for _, k := range part {
				f.AddString(string(keyBytes(k)))
			}
		}
	}
}

// checkMulti asserts that every test path answers like TestHash for every
// key, batch forms cut at the tail lengths, and that the keys in present
// test true.
func checkMulti(t *testing.T, f multi, ks []uint64, present func(i int) bool) {
	t.Helper()
	want := make([]bool, len(ks))
	wantHits := 0
	for i, k := range ks {
		want[i] = f.TestHash(engine.HashUint64Seed(k, f.Seed()))
		if want[i] != f.Test(keyBytes(k)) || want[i] != f.TestUint64(k) || want[i] != f.TestString(string(keyBytes(k))) {
			t.Fatalf("key %d: TestHash, Test, TestUint64 and TestString disagree", i)
		}
		if present(i) && !want[i] {
			t.Fatalf("false negative: added key %d (%#x) tests absent", i, k)
		}
		if want[i] {
			wantHits++
		}
	}
	hs := make([]uint64, len(ks))
	asm.HashUint64s(hs, ks, f.Seed())
	keys := make([][]byte, len(ks))
	for i, k := range ks {
		keys[i] = keyBytes(k)
	}
	checkBatches(t, f, ks, hs, keys, want, wantHits)
}

// checkBatches compares the batch forms, cut at the tail lengths, with
// the single-key answers want.
func checkBatches(t *testing.T, f multi, ks, hs []uint64, keys [][]byte, want []bool, wantHits int) {
	t.Helper()
	for name, test := range map[string]func(lo, hi int, out []bool) int{
		"TestHashes":  func(lo, hi int, out []bool) int { return f.TestHashes(hs[lo:hi], out) },
		"TestUint64s": func(lo, hi int, out []bool) int { return f.TestUint64s(ks[lo:hi], out) },
		"TestKeys":    func(lo, hi int, out []bool) int { return f.TestKeys(keys[lo:hi], out) },
	} {
		out := make([]bool, len(ks))
		hits := 0
		for lo, i := 0, 0; lo < len(ks); i++ {
			hi := min(len(ks), lo+kerneltest.BatchLengths[i%len(kerneltest.BatchLengths)])
			hits += test(lo, hi, out[lo:hi])
			lo = hi
		}
		if hits != wantHits {
			t.Fatalf("%s: %d hits, TestHash gives %d", name, hits, wantHits)
		}
		for i := range out {
			if out[i] != want[i] {
				t.Fatalf("%s: key %d answers %v, TestHash %v", name, i, out[i], want[i])
			}
		}
	}
}

func wantErr(t *testing.T, name string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("%s: error %v, want one wrapping %v", name, err, target)
	}
}

func wantPanic(t *testing.T, name, msg string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, msg) {
			t.Errorf("%s: panic %v, want one naming %q", name, r, msg)
		}
	}()
	f()
}

// roundTrip returns f decoded by UnmarshalBinary and by decode, each
// re-encoding to f's bytes, for the caller to check what the type adds
// (its parameters, its growth after decoding). The conformance suite's
// Codecs and Corruption check the other codecs and the bad bytes.
func roundTrip[T multi](t *testing.T, f T, zero func() T, decode func([]byte, ...engine.Option) (T, error)) []T {
	t.Helper()
	data, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	a := zero()
	if err := a.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	d, err := decode(data)
	if err != nil {
		t.Fatal(err)
	}
	got := []T{a, d}
	for i, g := range got {
		again, err := g.MarshalBinary()
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("copy %d re-encodes differently (%v)", i, err)
		}
	}
	return got
}

// checkGolden compares the encoding of build() with testdata/name
// (rewritten under -update) and returns the decoded golden filter.
func checkGolden[T multi](t *testing.T, name string, build func() T, decode func([]byte, ...engine.Option) (T, error)) T {
	t.Helper()
	path := filepath.Join("testdata", name)
	f := build()
	data, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(golden, data) {
		t.Errorf("%s: the filter built today encodes differently from the golden file", name)
	}
	g, err := decode(golden)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// checkGoldenFP asserts that the golden filter g holds the keys lo..hi-1
// (8 little-endian bytes) and answers yes for exactly pinned of the
// 100000 absent keys from hi on.
func checkGoldenFP(t *testing.T, g multi, lo, hi uint64, pinned int) {
	t.Helper()
	fp := 0
	for k := lo; k < hi+100_000; k++ {
		hit := g.Test(keyBytes(k))
		if k < hi && !hit {
			t.Fatalf("golden filter lost key %d", k)
		}
		if k >= hi && hit {
			fp++
		}
	}
	if fp != pinned {
		t.Errorf("golden filter: %d false positives among 100000 absent keys, pinned %d", fp, pinned)
	}
}

// fuzzDecoder checks a decoder on hostile bytes: an error wrapping
// ErrFormat, or a filter no larger than the input that re-encodes to it.
func fuzzDecoder[T multi](f *testing.F, seeds [][]byte, decode func([]byte, ...engine.Option) (T, error)) {
	// Inputs that change any byte of an envelope fail its checksums, so
	// each input is also sealed as an envelope of the first seed's kind.
	env := fuzzenv.AddSeeds(f, seeds...)
	check := func(t *testing.T, data []byte) {
		d, err := decode(data)
		if err != nil {
			if !errors.Is(err, engine.ErrFormat) {
				t.Fatalf("error %v does not wrap ErrFormat", err)
			}
			return
		}
		if d.SizeBytes() > uint64(len(data)) {
			t.Fatalf("decoded %d bytes of arrays from %d bytes", d.SizeBytes(), len(data))
		}
		if again, _ := d.MarshalBinary(); !bytes.Equal(again, data) {
			t.Fatal("re-encoding differs from the accepted input")
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check(t, data)
		if sealed := env.Seal(data); sealed != nil {
			check(t, sealed)
		}
	})
}

// absentKeys returns n keys no randomKeys call produces in practice.
func absentKeys(n int) []uint64 {
	ks := make([]uint64, n)
	for i := range ks {
		ks[i] = uint64(i) | 1<<63
	}
	return ks
}
