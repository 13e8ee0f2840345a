package hadoop

import (
	"bytes"
	"testing"
)

func goldenDynamic(t *testing.T, c *goldenCase, k goldenKeys, n *tally) {
	want := c.bin(t)
	f, err := ReadDynamicBloomFilter(bytes.NewReader(want))
	if err != nil {
		t.Fatal(err)
	}
	if f.VectorSize() != c.VectorSize || f.NbHash() != c.NbHash || f.HashType() != c.HashType || f.NR() != c.NR {
		t.Fatalf("read shape (%d, %d, %v, nr %d), Hadoop (%d, %d, %v, nr %d)", f.VectorSize(), f.NbHash(),
			f.HashType(), f.NR(), c.VectorSize, c.NbHash, c.HashType, c.NR)
	}
	checkRows := func(what string, f *DynamicBloomFilter) {
		if f.Rows() != c.Rows || f.CurrentNbRecord() != c.CurrentNbRecord {
			t.Errorf("%s: %d rows, current %d; Hadoop %d, %d", what, f.Rows(), f.CurrentNbRecord(),
				c.Rows, c.CurrentNbRecord)
		}
	}
	checkRows("read", f)
	read := sameBytes(t, "written back", written(t, f), want)
	checkAnswers(t, f, c, k)

	g := rebuildDynamic(t, c, k)
	checkRows("rebuilt", g)
	rebuilt := sameBytes(t, "rebuilt", written(t, g), want)
	n.add(t, read, true, rebuilt)
}

func newDynamicT(t *testing.T, c *goldenCase, keys [][]byte) *DynamicBloomFilter {
	t.Helper()
	f, err := NewDynamicBloomFilter(c.VectorSize, c.NbHash, c.HashType, c.NR)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range keys {
		if err := f.Add(key); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func rebuildDynamic(t *testing.T, c *goldenCase, k goldenKeys) *DynamicBloomFilter {
	if c.Operation == "" {
		return newDynamicT(t, c, c.added(t, k))
	}
	a := newDynamicT(t, c, k.list(t, *c.AKeys))
	var err error
	switch c.Operation {
	case "A.and(B)":
		err = a.And(newDynamicT(t, c, k.list(t, *c.BKeys)))
	case "A.or(B)":
		err = a.Or(newDynamicT(t, c, k.list(t, *c.BKeys)))
	case "A.xor(B)":
		err = a.Xor(newDynamicT(t, c, k.list(t, *c.BKeys)))
	case "A.not()":
		a.Not()
	default:
		t.Fatalf("unknown operation %q", c.Operation)
	}
	if err != nil {
		t.Fatal(err)
	}
	return a
}
