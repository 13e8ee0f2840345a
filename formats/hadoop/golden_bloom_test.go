package hadoop

import "testing"

func goldenBloom(t *testing.T, c *goldenCase, k goldenKeys, n *tally) {
	_, want, read := readGolden(t, c, k, ReadBloomFilter)
	var g *BloomFilter
	if c.Operation == "" {
		g = newBloomT(t, c, c.added(t, k))
	} else {
		g = applyOp(t, c.Operation, newBloomT(t, c, k.list(t, *c.AKeys)),
			func() *BloomFilter { return newBloomT(t, c, k.list(t, *c.BKeys)) })
	}
	n.add(t, read, true, sameBytes(t, "rebuilt", written(t, g), want))
}

func newBloomT(t *testing.T, c *goldenCase, keys [][]byte) *BloomFilter {
	t.Helper()
	f, err := NewBloomFilter(c.VectorSize, c.NbHash, c.HashType)
	if err != nil {
		t.Fatal(err)
	}
	addAll(t, f.Add, keys)
	return f
}
