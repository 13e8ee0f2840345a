package hadoop

import "testing"

func goldenCounting(t *testing.T, c *goldenCase, k goldenKeys, n *tally) {
	f, want, read := readGolden(t, c, k, ReadCountingBloomFilter)
	for _, p := range c.Probes {
		if p.ApproximateCount == nil {
			t.Fatalf("probe %s: no approximateCount", p.Source)
		}
		if got := f.ApproximateCount(unhex(t, p.Key)); got != *p.ApproximateCount {
			t.Errorf("probe %s: ApproximateCount = %d, Hadoop %d", p.Source, got, *p.ApproximateCount)
		}
	}
	for _, s := range c.SaturatedKeys {
		key := unhex(t, s.Key)
		if got := f.ApproximateCount(key); got != s.ApproximateCount {
			t.Errorf("saturated %s: ApproximateCount = %d, Hadoop %d", s.Key, got, s.ApproximateCount)
		}
		pos, err := Positions(key, c.VectorSize, c.NbHash, c.HashType)
		if err != nil || !equalInts(pos, s.Positions) {
			t.Errorf("saturated %s: positions %v (%v), Hadoop %v", s.Key, pos, err, s.Positions)
		}
	}

	g := rebuildCounting(t, c, k)
	n.add(t, read, true, sameBytes(t, "rebuilt", written(t, g), want))
}

func newCountingT(t *testing.T, c *goldenCase, keys [][]byte, times int) *CountingBloomFilter {
	t.Helper()
	f, err := NewCountingBloomFilter(c.VectorSize, c.NbHash, c.HashType)
	if err != nil {
		t.Fatal(err)
	}
	for range times {
		addAll(t, f.Add, keys)
	}
	return f
}

func rebuildCounting(t *testing.T, c *goldenCase, k goldenKeys) *CountingBloomFilter {
	if c.Operation != "" {
		// A adds its keys once, B three times (B_note).
		a := newCountingT(t, c, k.list(t, *c.AKeys), 1)
		b := newCountingT(t, c, k.list(t, *c.BKeys), 3)
		var err error
		switch c.Operation {
		case "A.and(B)":
			err = a.And(b)
		case "A.or(B)":
			err = a.Or(b)
		default:
			t.Fatalf("unknown operation %q", c.Operation)
		}
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	if len(c.Operations) == 0 {
		t.Fatal("no operations recorded")
	}
	f := newCountingT(t, c, nil, 0)
	for _, op := range c.Operations {
		keys := k.list(t, op.Keys)
		for range op.Times {
			for _, key := range keys {
				var err error
				switch op.Op {
				case "add":
					err = f.Add(key)
				case "delete":
					err = f.Delete(key)
				default:
					t.Fatalf("unknown op %q", op.Op)
				}
				if err != nil {
					t.Fatalf("%s %x: %v", op.Op, key, err)
				}
			}
		}
	}
	return f
}
