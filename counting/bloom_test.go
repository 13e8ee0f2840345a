package counting

import (
	"bytes"
	"testing"

	"github.com/filterengine/filterengine/engine"
)

// The Bloom twin answers exactly as the counting filter for every key,
// present or not, also after removals, after its own round trip and for
// both counter widths.
func TestToBloomIsExactTwin(t *testing.T) {
	widths(t, func(t *testing.T, bits int) {
		f := mustNew(t, 20000, 0.01, WithCounterBits(bits), engine.WithSeed(5))
		added := randomHashes(20000, 10)
		f.AddHashes(added)
		out := make([]bool, 5000)
		f.RemoveHashes(added[:5000], out)
		b, err := f.ToBloom()
		if err != nil {
			t.Fatal(err)
		}
		if b.Bits() != f.Counters() || b.K() != f.K() || b.Lines() != f.Lines() {
			t.Errorf("twin geometry %d bits k %d, filter %d counters k %d", b.Bits(), b.K(), f.Counters(), f.K())
		}
		data, err := b.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var b2 Bloom
		if _, err := b2.ReadFrom(bytes.NewReader(data)); err != nil {
			t.Fatal(err)
		}
		probe := append(added, randomHashes(200000, 11)...)
		hits, same := 0, 0
		for _, h := range probe {
			want := f.TestHash(h)
			if want {
				hits++
			}
			if b.TestHash(h) == want && b2.TestHash(h) == want {
				same++
			}
		}
		if same != len(probe) {
			t.Errorf("twin disagrees with the filter on %d of %d keys", len(probe)-same, len(probe))
		}
		if hits < 15000 {
			t.Errorf("only %d hits: the comparison did not cover present keys", hits)
		}
		key := []byte("by bytes")
		f.Add(key)
		b, _ = f.ToBloom()
		ks := []uint64{0, 1, 2, 3}
		if !b.Test(key) || b.TestUint64s(ks, out) != f.TestUint64s(ks, out) {
			t.Error("twin key forms disagree with the filter")
		}
	})
}

// A Bloom built by its own Add answers like one converted from a counting
// filter with the same keys.
func TestBloomAddMatchesConversion(t *testing.T) {
	f := mustNew(t, 5000, 0.01)
	ks := make([]uint64, 5000)
	for i := range ks {
		ks[i] = uint64(i) * 7
	}
	f.AddUint64s(ks)
	b, _ := f.ToBloom()
	empty, _ := NewMK(f.Counters(), f.K())
	direct, _ := empty.ToBloom()
	direct.AddUint64s(ks)
	if !equalWords(b.words, direct.words) {
		t.Error("Bloom.AddUint64s sets different bits than the counting filter's nonzero counters")
	}
	out := make([]bool, len(ks))
	if n := direct.TestUint64s(ks, out); n != len(ks) {
		t.Errorf("twin lost keys: %d of %d", n, len(ks))
	}
}

func equalWords(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
