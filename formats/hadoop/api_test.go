package hadoop

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"sync"
	"testing"

	"github.com/filterengine/filterengine/engine"
)

// over31 is 2^31, one past the largest Java int, where int has 64 bits; a
// variable, so that the tests build where int has 32 (it is then negative,
// and just as invalid).
var over31 = one << 31

var one = 1

func isParam(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, engine.ErrParam) {
		t.Errorf("%s: %v, want an ErrParam error", what, err)
	}
}

func TestConstructorErrors(t *testing.T) {
	for _, c := range []struct{ vs, k int }{{0, 1}, {-1, 1}, {over31, 1}, {10, 0}, {10, -2}, {10, over31}} {
		_, err := NewBloomFilter(c.vs, c.k, Murmur)
		isParam(t, "NewBloomFilter", err)
		_, err = NewCountingBloomFilter(c.vs, c.k, Murmur)
		isParam(t, "NewCountingBloomFilter", err)
		_, err = NewDynamicBloomFilter(c.vs, c.k, Murmur, 10)
		isParam(t, "NewDynamicBloomFilter", err)
		_, err = NewRetouchedBloomFilter(c.vs, c.k, Murmur)
		isParam(t, "NewRetouchedBloomFilter", err)
	}
	_, err := NewBloomFilter(10, 1, 2)
	isParam(t, "hash type 2", err)
	for _, nr := range []int{0, -1, over31} {
		_, err = NewDynamicBloomFilter(10, 1, Jenkins, nr)
		isParam(t, "nr", err)
	}
}

// Zero values answer as empty filters and refuse writes with an error.
func TestZeroValues(t *testing.T) {
	key := []byte("k")
	out := make([]bool, 1)
	var b BloomFilter
	var c CountingBloomFilter
	var d DynamicBloomFilter
	var r RetouchedBloomFilter
	if b.Test(key) || c.Test(key) || d.Test(key) || r.Test(key) || c.ApproximateCount(key) != 0 {
		t.Error("a zero value answered present")
	}
	if b.TestKeys([][]byte{key}, out)+c.TestKeys([][]byte{key}, out)+d.TestKeys([][]byte{key}, out)+
		r.TestKeys([][]byte{key}, out) != 0 {
		t.Error("a zero value's TestKeys answered present")
	}
	isParam(t, "Bloom Add", b.Add(key))
	isParam(t, "Counting Add", c.Add(key))
	isParam(t, "Counting Delete", c.Delete(key))
	isParam(t, "Dynamic Add", d.Add(key))
	isParam(t, "Retouched Add", r.Add(key))
	isParam(t, "Retouched AddFalsePositive", r.AddFalsePositive(key, 1))
	_, err := r.SelectiveClearing(key, RemoveRandom)
	isParam(t, "Retouched SelectiveClearing", err)
	var buf bytes.Buffer
	_, err = b.WriteTo(&buf)
	isParam(t, "Bloom WriteTo", err)
	_, err = c.WriteTo(&buf)
	isParam(t, "Counting WriteTo", err)
	_, err = d.WriteTo(&buf)
	isParam(t, "Dynamic WriteTo", err)
	_, err = r.WriteTo(&buf)
	isParam(t, "Retouched WriteTo", err)
	if buf.Len() != 0 {
		t.Error("a zero value wrote bytes")
	}
	b.Not()
	d.Not()
	r.Not()
	f, _ := NewBloomFilter(8, 1, Jenkins)
	isParam(t, "And with a zero value", f.And(&b))
	isParam(t, "Or with nil", f.Or(nil))
}

func TestEmptyKey(t *testing.T) {
	b, _ := NewBloomFilter(8, 1, Jenkins)
	c, _ := NewCountingBloomFilter(8, 1, Jenkins)
	d, _ := NewDynamicBloomFilter(8, 1, Jenkins, 2)
	r, _ := NewRetouchedBloomFilter(8, 1, Jenkins)
	for _, key := range [][]byte{nil, {}} {
		isParam(t, "Bloom", b.Add(key))
		isParam(t, "Counting", c.Add(key))
		isParam(t, "Counting Delete", c.Delete(key))
		isParam(t, "Dynamic", d.Add(key))
		isParam(t, "Retouched", r.AddWeighted(key, 2))
		isParam(t, "Retouched fp", r.AddFalsePositive(key, 2))
		_, err := r.SelectiveClearing(key, RemoveMinimumFN)
		isParam(t, "Retouched clearing", err)
		b.Not() // every bit set: still, an empty key is never a member
		if b.Test(key) || c.Test(key) || d.Test(key) || r.Test(key) {
			t.Error("an empty key tested present")
		}
		b.Not()
	}
	if d.CurrentNbRecord() != 0 || d.Rows() != 1 {
		t.Error("a refused key changed the dynamic filter")
	}
}

func TestShapeMismatch(t *testing.T) {
	a, _ := NewBloomFilter(1000, 4, Murmur)
	for _, o := range []struct {
		vs, k int
		h     HashType
	}{{1001, 4, Murmur}, {1000, 3, Murmur}, {1000, 4, Jenkins}} {
		b, _ := NewBloomFilter(o.vs, o.k, o.h)
		isParam(t, "And", a.And(b))
		isParam(t, "Or", a.Or(b))
		isParam(t, "Xor", a.Xor(b))
		c1, _ := NewCountingBloomFilter(1000, 4, Murmur)
		c2, _ := NewCountingBloomFilter(o.vs, o.k, o.h)
		isParam(t, "Counting And", c1.And(c2))
		isParam(t, "Counting Or", c1.Or(c2))
		r1, _ := NewRetouchedBloomFilter(1000, 4, Murmur)
		r2, _ := NewRetouchedBloomFilter(o.vs, o.k, o.h)
		isParam(t, "Retouched And", r1.And(r2))
	}
	d1, _ := NewDynamicBloomFilter(100, 2, Murmur, 1)
	d2, _ := NewDynamicBloomFilter(100, 2, Murmur, 1)
	d3, _ := NewDynamicBloomFilter(100, 2, Murmur, 2)
	_ = d1.Add([]byte("x"))
	_ = d1.Add([]byte("y")) // two rows
	isParam(t, "Dynamic rows", d1.And(d2))
	isParam(t, "Dynamic nr", d2.Or(d3))
	if err := d2.Xor(d2); err != nil {
		t.Errorf("Dynamic Xor with itself: %v", err)
	}
}

func TestDynamicRows(t *testing.T) {
	for _, c := range []struct{ nr, n, rows, current int }{
		{10, 0, 1, 0}, {10, 1, 1, 1}, {10, 10, 1, 10}, {10, 11, 2, 1}, {10, 35, 4, 5}, {10, 250, 25, 10}, {1, 3, 3, 1},
	} {
		f, _ := NewDynamicBloomFilter(200, 3, Murmur, c.nr)
		for _, k := range benchKeys(c.n) {
			if err := f.Add(k); err != nil {
				t.Fatal(err)
			}
		}
		if f.Rows() != c.rows || f.CurrentNbRecord() != c.current || f.NR() != c.nr {
			t.Errorf("nr %d, %d keys: %d rows, current %d; want %d, %d", c.nr, c.n, f.Rows(), f.CurrentNbRecord(),
				c.rows, c.current)
		}
	}
}

// No false negatives: every added key tests present in every type, single
// and batch, before and after a round trip.
func TestNoFalseNegatives(t *testing.T) {
	keys := benchKeys(3000)
	for _, h := range []HashType{Jenkins, Murmur} {
		b, _ := NewBloomFilter(20000, 5, h)
		c, _ := NewCountingBloomFilter(20000, 5, h)
		d, _ := NewDynamicBloomFilter(4000, 5, h, 500)
		r, _ := NewRetouchedBloomFilter(20000, 5, h)
		for _, k := range keys {
			for _, add := range []func([]byte) error{b.Add, c.Add, d.Add, r.Add} {
				if err := add(k); err != nil {
					t.Fatal(err)
				}
			}
		}
		b2, err := ReadBloomFilter(bytes.NewReader(written(t, b)))
		if err != nil {
			t.Fatal(err)
		}
		c2, _ := ReadCountingBloomFilter(bytes.NewReader(written(t, c)))
		d2, _ := ReadDynamicBloomFilter(bytes.NewReader(written(t, d)))
		r2, _ := ReadRetouchedBloomFilter(bytes.NewReader(written(t, r)))
		out := make([]bool, len(keys))
		for name, f := range map[string]tester{"bloom": b, "counting": c, "dynamic": d, "retouched": r,
			"bloom read": b2, "counting read": c2, "dynamic read": d2, "retouched read": r2} {
			if hits := f.TestKeys(keys, out); hits != len(keys) {
				t.Errorf("%v %s: TestKeys found %d of %d", h, name, hits, len(keys))
			}
			for _, k := range keys {
				if !f.Test(k) {
					t.Fatalf("%v %s: false negative", h, name)
				}
			}
		}
	}
}

// TestKeys answers what Test answers, on every batch length around the
// group size, with and without empty keys, and panics on a short out.
func TestTestKeysMatchesTest(t *testing.T) {
	keys := benchKeys(200)
	keys[7] = nil
	keys[40] = []byte{}
	b, _ := NewBloomFilter(600, 3, Murmur)
	c, _ := NewCountingBloomFilter(600, 3, Jenkins)
	for _, k := range keys[:100] {
		_ = b.Add(k)
		_ = c.Add(k)
	}
	for _, f := range []tester{b, c} {
		for _, n := range []int{0, 1, 7, 31, 32, 33, 63, 64, 65, 200} {
			out := make([]bool, n+3)
			for i := range out {
				out[i] = true
			}
			hits, want := f.TestKeys(keys[:n], out), 0
			for i, k := range keys[:n] {
				if out[i] != f.Test(k) {
					t.Fatalf("n=%d key %d: TestKeys %v, Test %v", n, i, out[i], !out[i])
				}
				if out[i] {
					want++
				}
			}
			if hits != want || !out[n] {
				t.Fatalf("n=%d: %d hits, want %d; or out past the keys was touched", n, hits, want)
			}
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Error("TestKeys with a short out did not panic")
				}
			}()
			f.TestKeys(keys[:5], make([]bool, 4))
		}()
	}
}

// Key.write bytes for the keys and weights Hadoop recorded.
func TestKeyWritable(t *testing.T) {
	var g struct {
		Keys []struct {
			Key         string  `json:"key"`
			Weight      float64 `json:"weight"`
			WritableHex string  `json:"writable_hex"`
		} `json:"keys"`
	}
	if err := readJSON("key_writable.json", &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Keys) == 0 {
		t.Fatal("no keys recorded")
	}
	for _, k := range g.Keys {
		var buf bytes.Buffer
		w := newWriter(&buf)
		writeKeys(w, []weightedKey{{b: unhex(t, k.Key), w: k.Weight}})
		if _, err := w.done(); err != nil {
			t.Fatal(err)
		}
		want := append([]byte{0, 0, 0, 1}, unhex(t, k.WritableHex)...) // a list of one
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("key %s weight %v: % x, Hadoop % x", k.Key, k.Weight, buf.Bytes(), want)
		}
	}
}

// Writing is canonical as Hadoop's is: any NaN as Java's canonical NaN,
// bits past vectorSize dropped.
func TestCanonicalWrite(t *testing.T) {
	r, _ := NewRetouchedBloomFilter(1, 1, Murmur)
	if err := r.AddWeighted([]byte{1}, math.Float64frombits(0x7ff0000000000abc)); err != nil {
		t.Fatal(err)
	}
	got := written(t, r)
	weight := got[len(got)-8-8 : len(got)-8]
	if binary.BigEndian.Uint64(weight) != 0x7ff8000000000000 {
		t.Errorf("NaN weight written as % x", weight)
	}
	b, _ := NewBloomFilter(3, 1, Jenkins)
	data := written(t, b)
	data[len(data)-1] = 0xff // bits 0..2 and five stray bits
	b2, err := ReadBloomFilter(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if got := written(t, b2); got[len(got)-1] != 0x07 {
		t.Errorf("last byte written as %#x, want 0x07", got[len(got)-1])
	}
	b2.Not()
	if got := written(t, b2); got[len(got)-1] != 0 {
		t.Errorf("Not set bits past vectorSize: %#x", got[len(got)-1])
	}
}

// Weights less than 1 apart compare equal, as Key.compareTo does.
func TestKeyEquality(t *testing.T) {
	for _, c := range []struct {
		a, b  weightedKey
		equal bool
	}{
		{weightedKey{[]byte{1}, 1}, weightedKey{[]byte{1}, 1.99}, true},
		{weightedKey{[]byte{1}, 1}, weightedKey{[]byte{1}, 2}, false},
		{weightedKey{[]byte{1}, 0.5}, weightedKey{[]byte{1}, -0.4}, true},
		{weightedKey{[]byte{1}, math.NaN()}, weightedKey{[]byte{1}, 7}, true},
		{weightedKey{[]byte{1}, math.Inf(1)}, weightedKey{[]byte{1}, math.Inf(1)}, true},
		{weightedKey{[]byte{1}, 1}, weightedKey{[]byte{2}, 1}, false},
		{weightedKey{[]byte{1}, 1}, weightedKey{[]byte{1, 0}, 1}, false},
	} {
		if got := c.a.equal(c.b); got != c.equal || c.b.equal(c.a) != c.equal {
			t.Errorf("%v equal %v = %v, want %v", c.a, c.b, got, c.equal)
		}
	}
}

// Plain reads run from many goroutines at once (run under -race).
func TestConcurrentTest(t *testing.T) {
	keys := benchKeys(500)
	b, _ := NewBloomFilter(5000, 4, Murmur)
	c, _ := NewCountingBloomFilter(5000, 4, Murmur)
	d, _ := NewDynamicBloomFilter(5000, 4, Murmur, 100)
	r, _ := NewRetouchedBloomFilter(5000, 4, Murmur)
	for _, k := range keys {
		_, _, _, _ = b.Add(k), c.Add(k), d.Add(k), r.Add(k)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			out := make([]bool, len(keys))
			for _, f := range []tester{b, c, d, r} {
				if f.TestKeys(keys, out) != len(keys) {
					t.Error("false negative")
				}
				for _, k := range keys {
					if !f.Test(k) {
						t.Error("false negative")
					}
				}
			}
			_ = c.ApproximateCount(keys[0])
			_, _ = b.WriteTo(&bytes.Buffer{})
		})
	}
	wg.Wait()
}
