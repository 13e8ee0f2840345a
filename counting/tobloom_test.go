package counting

import (
	"errors"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/engine"
)

// ToBloom's blocked.Narrow filter has exactly the bits of a narrow filter
// of the same size built by adding the same keys, and answers exactly like the
// counting filter on 1e5 members and 1e6 non-members, for both counter
// widths; after removals it equals the blocked filter of the keys left.
func TestToBloomIsBlockedTwin(t *testing.T) {
	widths(t, func(t *testing.T, bits int) {
		const n, absent = 100000, 1000000
		const seed = 5
		f := mustNew(t, n, 0.01, WithCounterBits(bits), engine.WithSeed(seed))
		ks := make([]uint64, n)
		for i := range ks {
			ks[i] = uint64(i)*0x9e3779b97f4a7c15 + 3
		}
		f.AddUint64s(ks)
		f.AddUint64s(ks[:1000]) // counts above 1 change nothing in the twin
		per := int(lineCounters(bits == 8))
		want, err := blocked.NewNarrow(n, 0.01, per, engine.WithSeed(seed))
		if err != nil {
			t.Fatal(err)
		}
		if want.Blocks() != f.Lines() || want.K() != f.K() || want.BlockBits() != per {
			t.Fatalf("blocked.NewNarrow sized %d blocks k %d, counting.New %d lines k %d", want.Blocks(), want.K(), f.Lines(), f.K())
		}
		want.AddUint64s(ks)
		b, err := f.ToBloom()
		if err != nil {
			t.Fatal(err)
		}
		if b.Seed() != seed || b.K() != f.K() || b.Blocks() != f.Lines() || b.BlockBits() != per || !slices.Equal(b.Words(), want.Words()) {
			t.Fatal("ToBloom's bits differ from the blocked filter of the same keys")
		}
		if uint64(0) == f.Nonzero() || f.Nonzero() != popcountWords(b.Words()) {
			t.Errorf("%d nonzero counters, %d set bits", f.Nonzero(), popcountWords(b.Words()))
		}
		probe := make([]uint64, 0, n+absent)
		probe = append(probe, ks...)
		for i := range uint64(absent) {
			probe = append(probe, 1<<50+i)
		}
		got, twin := make([]bool, len(probe)), make([]bool, len(probe))
		hits := f.TestUint64s(probe, got)
		if b.TestUint64s(probe, twin) != hits || !slices.Equal(got, twin) {
			t.Error("ToBloom's filter answers differently from the counting filter")
		}
		if fp := hits - n; hits < n || fp < absent/1000 {
			t.Errorf("%d hits on %d members and %d absent keys: the comparison misses a side", hits, n, absent)
		}

		out := make([]bool, n/2)
		if f.RemoveUint64s(ks[n/2:], out) != n/2 {
			t.Fatal("removing added keys failed")
		}
		f.RemoveUint64s(ks[:1000], out) // the extra insertions
		left, _ := blocked.NewNarrow(n, 0.01, per, engine.WithSeed(seed))
		left.AddUint64s(ks[:n/2])
		if b, _ = f.ToBloom(); !slices.Equal(b.Words(), left.Words()) {
			t.Error("after removals ToBloom differs from the blocked filter of the keys left")
		}
	})
}

func popcountWords(ws []uint64) uint64 {
	var n uint64
	for _, w := range ws {
		n += uint64(popcount(w))
	}
	return n
}

// The twin keeps the counting filter's seed: it is the seed its keys were
// hashed with. Another seed would give a twin that misses every key, so
// it is an error; the filter's own seed, or none, is accepted.
func TestToBloomSeed(t *testing.T) {
	f := mustNew(t, 1000, 0.01, engine.WithSeed(1))
	f.AddString("kept")
	if _, err := f.ToBloom(engine.WithSeed(2)); !errors.Is(err, engine.ErrParam) {
		t.Errorf("ToBloom(WithSeed(2)) of a filter of seed 1: %v", err)
	}
	for _, opts := range [][]engine.Option{nil, {engine.WithSeed(1)}, {engine.WithSeed(0)}} {
		b, err := f.ToBloom(opts...)
		if err != nil || b.Seed() != 1 || !b.TestString("kept") {
			t.Errorf("ToBloom(%d options): %v, seed %d", len(opts), err, b.Seed())
		}
	}
}
