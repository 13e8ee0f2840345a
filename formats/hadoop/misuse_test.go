package hadoop

import (
	"bytes"
	"errors"
	"testing"

	"github.com/filterengine/filterengine/engine"
)

// Bad parameters, zero values, empty keys and mismatched operands are
// errors wrapping engine.ErrParam that change nothing.

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
