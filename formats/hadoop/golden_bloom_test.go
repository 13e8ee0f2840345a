package hadoop

import (
	"bytes"
	"testing"
)

func goldenBloom(t *testing.T, c *goldenCase, k goldenKeys, n *tally) {
	want := c.bin(t)
	input := want
	if c.InputBin != "" {
		input = testdata(t, c.InputBin)
	}
	f, err := ReadBloomFilter(bytes.NewReader(input))
	if err != nil {
		t.Fatal(err)
	}
	if f.VectorSize() != c.VectorSize || f.NbHash() != c.NbHash || f.HashType() != c.HashType {
		t.Fatalf("read shape (%d, %d, %v), Hadoop (%d, %d, %v)", f.VectorSize(), f.NbHash(), f.HashType(),
			c.VectorSize, c.NbHash, c.HashType)
	}
	read := sameBytes(t, "written back", written(t, f), want)
	checkAnswers(t, f, c, k)

	g := rebuildBloom(t, c, k)
	rebuilt := sameBytes(t, "rebuilt", written(t, g), want)
	n.add(t, read, true, rebuilt)
}

func newBloomT(t *testing.T, c *goldenCase, keys [][]byte) *BloomFilter {
	t.Helper()
	f, err := NewBloomFilter(c.VectorSize, c.NbHash, c.HashType)
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

func rebuildBloom(t *testing.T, c *goldenCase, k goldenKeys) *BloomFilter {
	if c.Operation == "" {
		return newBloomT(t, c, c.added(t, k))
	}
	a := newBloomT(t, c, k.list(t, *c.AKeys))
	var err error
	switch c.Operation {
	case "A.and(B)":
		err = a.And(newBloomT(t, c, k.list(t, *c.BKeys)))
	case "A.or(B)":
		err = a.Or(newBloomT(t, c, k.list(t, *c.BKeys)))
	case "A.xor(B)":
		err = a.Xor(newBloomT(t, c, k.list(t, *c.BKeys)))
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
