package hadoop

import "testing"

func goldenDynamic(t *testing.T, c *goldenCase, k goldenKeys, n *tally) {
	f, want, read := readGolden(t, c, k, ReadDynamicBloomFilter)
	checkRows := func(what string, f *DynamicBloomFilter) {
		if f.NR() != c.NR || f.Rows() != c.Rows || f.CurrentNbRecord() != c.CurrentNbRecord {
			t.Errorf("%s: nr %d, %d rows, current %d; Hadoop %d, %d, %d", what, f.NR(), f.Rows(),
				f.CurrentNbRecord(), c.NR, c.Rows, c.CurrentNbRecord)
		}
	}
	checkRows("read", f)
	var g *DynamicBloomFilter
	if c.Operation == "" {
		g = newDynamicT(t, c, c.added(t, k))
	} else {
		g = applyOp(t, c.Operation, newDynamicT(t, c, k.list(t, *c.AKeys)),
			func() *DynamicBloomFilter { return newDynamicT(t, c, k.list(t, *c.BKeys)) })
	}
	checkRows("rebuilt", g)
	n.add(t, read, true, sameBytes(t, "rebuilt", written(t, g), want))
}

func newDynamicT(t *testing.T, c *goldenCase, keys [][]byte) *DynamicBloomFilter {
	t.Helper()
	f, err := NewDynamicBloomFilter(c.VectorSize, c.NbHash, c.HashType, c.NR)
	if err != nil {
		t.Fatal(err)
	}
	addAll(t, f.Add, keys)
	return f
}
