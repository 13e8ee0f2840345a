package counting

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/store"
	"github.com/filterengine/filterengine/internal/testkit/contracttest"
	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

// stringLengths are key lengths across xxh3's size classes, 1 to 4096.
var stringLengths = []int{1, 3, 4, 8, 9, 16, 17, 32, 33, 64, 65, 128, 129, 240, 241, 1000, 1024, 4096}

// The integer and string single-key forms answer exactly what the []byte
// forms answer on the same bytes, on every kernel level and after a
// round trip; their Remove forms remove what Remove removes, and
// RemoveKeys answers as Remove in order.
func TestSingleKeyFormsMatchBytes(t *testing.T) {
	widths(t, func(t *testing.T, bits int) {
		f := mustNew(t, 4000, 0.01, WithCounterBits(bits), engine.WithSeed(11))
		ks := make([]uint64, 6000)
		for i := range ks {
			ks[i] = uint64(i)*0x9e3779b97f4a7c15 + 5
		}
		var strs []string
		for i, n := range stringLengths {
			for j := range 40 {
				strs = append(strs, strings.Repeat(string(rune('a'+j%26)), n-1)+fmt.Sprint(i%10))
			}
		}
		for i, k := range ks[:3000] {
			if i%2 == 0 {
				f.AddUint64(k)
			} else {
				f.Add(store.WordsBytes([]uint64{k}))
			}
		}
		for i, s := range strs {
			if i%3 != 0 {
				f.AddString(s)
			}
		}
		data, err := f.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		g, err := Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		kerneltest.ForEachLevel(t, func(t *testing.T) {
			for _, x := range []*Filter{f, g} {
				out := make([]bool, len(ks))
				x.TestUint64s(ks, out)
				for i, k := range ks {
					b := store.WordsBytes([]uint64{k})
					want := x.Test(b)
					if x.TestUint64(k) != want || out[i] != want || x.TestString(string(b)) != want {
						t.Fatalf("uint64 key %d: forms disagree with Test", i)
					}
					if i < 3000 && !want {
						t.Fatalf("member %d absent", i)
					}
				}
				for i, s := range strs {
					if want := x.Test([]byte(s)); x.TestString(s) != want || (i%3 != 0 && !want) {
						t.Fatalf("string %d (%d bytes): TestString %v, Test %v", i, len(s), x.TestString(s), want)
					}
				}
			}
		})
		// Remove forms: the same answers and the same counters after.
		a, b, c := f.Clone(), f.Clone(), f.Clone()
		keys := make([][]byte, 0, 2*len(ks))
		for _, k := range ks {
			keys = append(keys, store.WordsBytes([]uint64{k}))
		}
		keys = append(keys, keys[:500]...) // some twice
		out := make([]bool, len(keys))
		n := c.RemoveKeys(keys, out)
		removed := 0
		for i, key := range keys {
			k := ks[i%len(ks)]
			want := a.Remove(key)
			if b.RemoveUint64(k) != want || out[i] != want {
				t.Fatalf("key %d: RemoveUint64 or RemoveKeys disagree with Remove (%v)", i, want)
			}
			if want {
				removed++
			}
		}
		if n != removed || !slices.Equal(a.words, b.words) || !slices.Equal(a.words, c.words) {
			t.Fatalf("RemoveKeys removed %d, Remove %d; counters equal: %v %v", n, removed, slices.Equal(a.words, b.words), slices.Equal(a.words, c.words))
		}
		for _, s := range strs {
			if a.Remove([]byte(s)) != b.RemoveString(s) {
				t.Fatal("RemoveString disagrees with Remove")
			}
		}
		if !slices.Equal(a.words, b.words) {
			t.Fatal("RemoveString left other counters than Remove")
		}
	})
}

// The string forms take no allocation at any length from 1 to 4096.
func TestStringFormsDoNotAllocate(t *testing.T) {
	f := mustNew(t, 1000, 0.01)
	for _, n := range stringLengths {
		s := strings.Repeat("x", n)
		if a := testing.AllocsPerRun(50, func() {
			f.AddString(s)
			f.TestString(s)
			f.RemoveString(s)
		}); a != 0 {
			t.Errorf("%d-byte string: %.1f allocations per Add/Test/RemoveString", n, a)
		}
	}
	if a := testing.AllocsPerRun(50, func() {
		f.AddUint64(7)
		f.TestUint64(7)
		f.RemoveUint64(7)
	}); a != 0 {
		t.Errorf("uint64 forms: %.1f allocations", a)
	}
}

func ExampleFilter_RemoveKeys() {
	f, err := New(1000, 0.01)
	if err != nil {
		panic(err)
	}
	f.AddString("a")
	f.AddUint64(42)
	out := make([]bool, 3)
	n := f.RemoveKeys([][]byte{[]byte("a"), []byte("b"), store.WordsBytes([]uint64{42})}, out)
	fmt.Println(n, out, f.TestString("a"), f.TestUint64(42))
	// Output: 2 [true false true] false false
}

func ExampleFilter_ToBloom() {
	f, err := New(1000, 0.01)
	if err != nil {
		panic(err)
	}
	f.AddString("kept")
	f.AddString("gone")
	f.RemoveString("gone")
	b, err := f.ToBloom()
	if err != nil {
		panic(err)
	}
	fmt.Println(b.BlockBits(), b.TestString("kept"), b.TestString("gone"))
	// Output: 128 true false
}

// The zero Filter has no counters: every method that answers for keys,
// changes them, encodes them or converts them panics with the family's
// message naming New (never an index error, never "present"); its
// accessors report zeros and Close is a no-op. A closed filter is a zero
// one (before, its CAS writers computed lines from nil words and wrote
// into whatever memory lay there).
func TestZeroFilter(t *testing.T) {
	var zero Filter
	closed := mustNew(t, 1000, 0.01)
	closed.AddString("x")
	if err := closed.Close(); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]*Filter{"zero": &zero, "closed": closed} {
		t.Run(name, func(t *testing.T) {
			contracttest.Panics(t, "counting.Filter: zero value, use counting.New", zeroCalls(t, f))
			if f.M() != 0 || f.K() != 0 && name == "zero" || f.SizeBytes() != 0 || f.HugePages() || f.Close() != nil || len(f.String()) > 200 {
				t.Errorf("the %s Filter's accessors: M %d, K %d, SizeBytes %d, String %q", name, f.M(), f.K(), f.SizeBytes(), f.String())
			}
		})
	}
}

// zeroCalls is every method of f that needs counters.
func zeroCalls(t *testing.T, f *Filter) map[string]func() {
	out := make([]bool, 2)
	hs, keys, ks := []uint64{1, 2}, [][]byte{{1}, {2}}, []uint64{1, 2}
	return map[string]func(){
		"Add": func() { f.Add([]byte("x")) }, "AddHash": func() { f.AddHash(1) },
		"AddUint64": func() { f.AddUint64(1) }, "AddString": func() { f.AddString("x") },
		"AddHashes": func() { f.AddHashes(hs) }, "AddKeys": func() { f.AddKeys(keys) },
		"AddUint64s": func() { f.AddUint64s(ks) }, "AddHashes(nil)": func() { f.AddHashes(nil) },
		"AddKeys(nil)": func() { f.AddKeys(nil) }, "AddUint64s(nil)": func() { f.AddUint64s(nil) },
		"Test": func() { f.Test([]byte("x")) }, "TestHash": func() { f.TestHash(1) },
		"TestUint64": func() { f.TestUint64(1) }, "TestString": func() { f.TestString("x") },
		"TestHashes": func() { f.TestHashes(hs, out) }, "TestKeys": func() { f.TestKeys(keys, out) },
		"TestUint64s": func() { f.TestUint64s(ks, out) }, "TestHashes(nil)": func() { f.TestHashes(nil, nil) },
		"TestAndAdd": func() { f.TestAndAdd([]byte("x")) }, "TestAndAddHash": func() { f.TestAndAddHash(1) },
		"Remove": func() { f.Remove([]byte("x")) }, "RemoveHash": func() { f.RemoveHash(1) },
		"RemoveUint64": func() { f.RemoveUint64(1) }, "RemoveString": func() { f.RemoveString("x") },
		"RemoveHashes": func() { f.RemoveHashes(hs, out) }, "RemoveKeys": func() { f.RemoveKeys(keys, out) },
		"RemoveUint64s": func() { f.RemoveUint64s(ks, out) }, "Count": func() { f.Count([]byte("x")) },
		"CountHash":     func() { f.CountHash(1) },
		"AddConcurrent": func() { f.AddConcurrent([]byte("x")) }, "AddHashConcurrent": func() { f.AddHashConcurrent(1) },
		"AddUint64sConcurrent(nil)": func() { f.AddUint64sConcurrent(nil) },
		"TestConcurrent":            func() { f.TestConcurrent([]byte("x")) },
		"TestAndAddConcurrent":      func() { f.TestAndAddConcurrent([]byte("x")) },
		"RemoveConcurrent":          func() { f.RemoveConcurrent([]byte("x")) }, "RemoveHashConcurrent": func() { f.RemoveHashConcurrent(1) },
		"RemoveHashesConcurrent":  func() { f.RemoveHashesConcurrent(hs, out) },
		"RemoveUint64sConcurrent": func() { f.RemoveUint64sConcurrent(ks, out) },
		"MarshalBinary":           func() { _, _ = f.MarshalBinary() }, "MarshalText": func() { _, _ = f.MarshalText() },
		"WriteTo": func() { _, _ = f.WriteTo(io.Discard) }, "WriteFile": func() { _ = f.WriteFile(t.TempDir() + "/f") },
		"Clone": func() { f.Clone() }, "ModelFPR": func() { f.ModelFPR(10) },
		"EstimatedCount": func() { f.EstimatedCount() }, "Reset": func() { f.Reset() },
		"ToBloom": func() { _, _ = f.ToBloom() },
	}
}

// A short out slice panics with internal/batch's one message.
func TestShortOut(t *testing.T) {
	f := mustNew(t, 100, 0.01)
	out := make([]bool, 2)
	contracttest.Panics(t, "counting: out has 2 elements for 3 keys", map[string]func(){
		"TestHashes":    func() { f.TestHashes(make([]uint64, 3), out) },
		"TestKeys":      func() { f.TestKeys(make([][]byte, 3), out) },
		"TestUint64s":   func() { f.TestUint64s(make([]uint64, 3), out) },
		"RemoveHashes":  func() { f.RemoveHashes(make([]uint64, 3), out) },
		"RemoveKeys":    func() { f.RemoveKeys(make([][]byte, 3), out) },
		"RemoveUint64s": func() { f.RemoveUint64s(make([]uint64, 3), out) },
	})
}

// Reset empties the filter: every key absent, no counter nonzero, and the
// filter takes keys again as a new one does.
func TestReset(t *testing.T) {
	widths(t, func(t *testing.T, bits int) {
		f := mustNew(t, 1000, 0.01, WithCounterBits(bits))
		hs := randomHashes(1000, 4)
		f.AddHashes(hs)
		f.Reset()
		if nz := f.Nonzero(); nz != 0 {
			t.Fatalf("%d counters nonzero after Reset", nz)
		}
		if n := f.TestHashes(hs, make([]bool, len(hs))); n != 0 {
			t.Fatalf("%d of %d keys present after Reset", n, len(hs))
		}
		f.AddHashes(hs[:10])
		g := mustNew(t, 1000, 0.01, WithCounterBits(bits))
		g.AddHashes(hs[:10])
		if !slices.Equal(f.words, g.words) {
			t.Fatal("a reset filter holds other counters than a new one after the same adds")
		}
	})
}
