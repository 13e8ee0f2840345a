package hadoop

import (
	"bytes"
	"errors"
	"testing"

	"github.com/filterengine/filterengine/engine"
)

func goldenRetouched(t *testing.T, c *goldenCase, k goldenKeys, n *tally) {
	f, want, read := readGolden(t, c, k, ReadRetouchedBloomFilter)
	if c.MemberFPBits != "" {
		fps := make([][]byte, len(c.FalsePositives))
		for i, fp := range c.FalsePositives {
			fps[i] = unhex(t, fp.Key)
		}
		checkBits(t, f, "false positive", fps, c.MemberFPBits)
	}

	g := rebuildRetouched(t, c, k)
	n.add(t, read, true, sameBytes(t, "rebuilt", written(t, g), want))
}

func rebuildRetouched(t *testing.T, c *goldenCase, k goldenKeys) *RetouchedBloomFilter {
	f, err := NewRetouchedBloomFilter(c.VectorSize, c.NbHash, c.HashType)
	if err != nil {
		t.Fatal(err)
	}
	added := c.added(t, k)
	if c.KeysAddedWeights != nil && len(c.KeysAddedWeights) != len(added) {
		t.Fatalf("%d weights for %d keys", len(c.KeysAddedWeights), len(added))
	}
	for i, key := range added {
		switch {
		case c.KeysAddedWeights != nil:
			err = f.AddWeighted(key, c.KeysAddedWeights[i])
		case c.KeysAddedWeightAll != nil:
			err = f.AddWeighted(key, *c.KeysAddedWeightAll)
		default: // no weight recorded: new Key(bytes), weight 1
			err = f.Add(key)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, fp := range c.FalsePositives {
		key := unhex(t, fp.Key)
		if pos, err := Positions(key, c.VectorSize, c.NbHash, c.HashType); err != nil || !equalInts(pos, fp.Positions) {
			t.Errorf("false positive %s: positions %v (%v), Hadoop %v", fp.Key, pos, err, fp.Positions)
		}
		if err := f.AddFalsePositive(key, fp.Weight); err != nil {
			t.Fatal(err)
		}
	}
	if c.Random != nil {
		f.SetRandomSeed(c.Random.Seed)
	}
	if c.SchemeCode != nil {
		replayClearings(t, f, c, RemoveScheme(*c.SchemeCode))
	} else if len(c.Clearing) > 0 {
		t.Fatal("clearings without a scheme")
	}
	if e := c.ErrorCall; e != nil {
		before := written(t, f)
		idx, err := f.SelectiveClearing(unhex(t, e.Key), RemoveScheme(e.SchemeCode))
		if !errors.Is(err, engine.ErrParam) {
			t.Errorf("failing clearing: %d, %v; want an ErrParam error as Hadoop throws", idx, err)
		}
		if !bytes.Equal(written(t, f), before) {
			t.Error("failing clearing changed the filter")
		}
	}
	return f
}

func replayClearings(t *testing.T, f *RetouchedBloomFilter, c *goldenCase, scheme RemoveScheme) {
	if len(c.Clearing) != len(c.FalsePositives) {
		t.Fatalf("%d clearings for %d false positives", len(c.Clearing), len(c.FalsePositives))
	}
	for i, cl := range c.Clearing {
		key := unhex(t, cl.Key)
		if got := f.Test(key); got != cl.MemberBefore {
			t.Fatalf("clearing %d: member before = %v, Hadoop %v", i, got, cl.MemberBefore)
		}
		if !cl.MemberBefore {
			if _, err := f.SelectiveClearing(key, scheme); !errors.Is(err, engine.ErrParam) {
				t.Fatalf("clearing %d of a non-member: %v, want ErrParam", i, err)
			}
			continue
		}
		if cl.ClearedIndex == nil || cl.BitWasSet == nil || cl.MemberAfter == nil {
			t.Fatalf("clearing %d: outcome not recorded", i)
		}
		if scheme == RemoveRandom && (cl.RandomDraw == nil || *cl.RandomDraw != *cl.ClearedIndex) {
			t.Fatalf("clearing %d: RANDOM draw %v, cleared %d", i, cl.RandomDraw, *cl.ClearedIndex)
		}
		wasSet := f.bloom.bits.get(*cl.ClearedIndex)
		idx, err := f.SelectiveClearing(key, scheme)
		if err != nil {
			t.Fatalf("clearing %d: %v", i, err)
		}
		if idx != *cl.ClearedIndex || wasSet != *cl.BitWasSet {
			t.Errorf("clearing %d: cleared %d (was set %v), Hadoop %d (%v)", i, idx, wasSet, *cl.ClearedIndex, *cl.BitWasSet)
		}
		if got := f.Test(key); got != *cl.MemberAfter {
			t.Errorf("clearing %d: member after = %v, Hadoop %v", i, got, *cl.MemberAfter)
		}
	}
}
