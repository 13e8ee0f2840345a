package hadoop

import (
	"bytes"
	"encoding/binary"
	"math"
	"sync"
	"testing"
)

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
