// Package keyforms checks a membership filter's single-key integer and
// string forms against its byte form, for every family's tests. Only
// _test files import it.
package keyforms

import (
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

// Filter is the single-key surface the check needs.
type Filter interface {
	Add(key []byte)
	Test(key []byte) bool
	AddUint64(k uint64)
	TestUint64(k uint64) bool
	AddString(s string)
	TestString(s string) bool
	TestUint64s(ks []uint64, out []bool) int
}

// Lengths are the string key lengths the checks use, 1 to 4096 bytes
// (every XXH3 length class).
var Lengths = []int{1, 3, 4, 8, 9, 16, 17, 64, 128, 129, 240, 241, 1000, 4096}

func le(k uint64) []byte { return binary.LittleEndian.AppendUint64(nil, k) }

func strKey(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteByte(byte(r.Uint32()))
	}
	return b.String()
}

// Check fills a filter from newFilter with keys through each of the
// three add forms and checks, on every kernel level and again on
// roundTrip(f), that TestUint64(k) answers Test of the 8 little-endian
// bytes of k (and the batch TestUint64s agrees), TestString(s) answers
// Test([]byte(s)), and every added key tests present through every form.
func Check[F Filter](t *testing.T, newFilter func() F, roundTrip func(t *testing.T, f F) F) {
	t.Helper()
	r := rand.New(rand.NewPCG(21, 22))
	f := newFilter()
	var ints []uint64
	var strs []string
	for i := range 3000 {
		k := r.Uint64()
		ints = append(ints, k)
		switch i % 3 {
		case 0:
			f.Add(le(k))
		case 1:
			f.AddUint64(k)
		case 2:
			f.AddString(string(le(k)))
		}
	}
	for i := range 300 {
		s := strKey(r, Lengths[i%len(Lengths)])
		strs = append(strs, s)
		if i%2 == 0 {
			f.AddString(s)
		} else {
			f.Add([]byte(s))
		}
	}
	probeInts := append([]uint64(nil), ints...)
	for range 3000 {
		probeInts = append(probeInts, r.Uint64())
	}
	probeStrs := append([]string(nil), strs...)
	for i := range 300 {
		probeStrs = append(probeStrs, strKey(r, Lengths[i%len(Lengths)]))
	}
	check := func(t *testing.T, f F) {
		out := make([]bool, len(probeInts))
		f.TestUint64s(probeInts, out)
		for i, k := range probeInts {
			want := f.Test(le(k))
			if got := f.TestUint64(k); got != want || out[i] != want {
				t.Fatalf("key %#x: TestUint64 = %v, TestUint64s = %v, Test of its bytes = %v", k, got, out[i], want)
			}
			if got := f.TestString(string(le(k))); got != want {
				t.Fatalf("key %#x: TestString of its bytes = %v, Test = %v", k, got, want)
			}
			if i < len(ints) && !want {
				t.Fatalf("added key %#x tests absent", k)
			}
		}
		for i, s := range probeStrs {
			want := f.Test([]byte(s))
			if got := f.TestString(s); got != want {
				t.Fatalf("string of %d bytes: TestString = %v, Test = %v", len(s), got, want)
			}
			if i < len(strs) && !want {
				t.Fatalf("added string of %d bytes tests absent", len(s))
			}
		}
	}
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		check(t, f)
		check(t, roundTrip(t, f))
	})
}

// CheckAllocs checks that the string forms allocate nothing for keys of
// every length in Lengths, nor the integer forms.
func CheckAllocs[F Filter](t *testing.T, f F) {
	t.Helper()
	r := rand.New(rand.NewPCG(23, 24))
	for _, n := range Lengths {
		s := strKey(r, n)
		if a := testing.AllocsPerRun(50, func() { f.AddString(s); f.TestString(s) }); a != 0 {
			t.Errorf("AddString/TestString of %d bytes: %v allocations per call", n, a)
		}
	}
	if a := testing.AllocsPerRun(50, func() { f.AddUint64(7); f.TestUint64(7) }); a != 0 {
		t.Errorf("AddUint64/TestUint64: %v allocations per call", a)
	}
}

// Codec is a Filter that marshals itself, for Family's round trip.
type Codec interface {
	Filter
	MarshalBinary() ([]byte, error)
}

// Family is a family's key-form test: Check on filters from
// newFilter(5000, 0.01, engine.WithSeed(seed)) for seeds 0 and 0x5eed,
// round-tripped through MarshalBinary and decode, then CheckAllocs.
func Family[F Codec](t *testing.T, newFilter func(n uint64, p float64, opts ...engine.Option) (F, error),
	decode func(data []byte) (F, error)) {
	t.Helper()
	for _, seed := range []uint64{0, 0x5eed} {
		Check(t, func() F {
			f, err := newFilter(5000, 0.01, engine.WithSeed(seed))
			if err != nil {
				t.Fatal(err)
			}
			return f
		}, func(t *testing.T, f F) F {
			data, err := f.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			g, err := decode(data)
			if err != nil {
				t.Fatal(err)
			}
			return g
		})
	}
	f, err := newFilter(1000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	CheckAllocs(t, f)
}
