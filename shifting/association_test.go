package shifting

import (
	"bytes"
	"encoding"
	"errors"
	"math"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/fprstat"
	"github.com/filterengine/filterengine/internal/testkit/fuzzenv"
)

// checkCorruption flips every byte of data and truncates it at every
// length; each must be a decoding error.
func checkCorruption(t *testing.T, data []byte, fresh func() encoding.BinaryUnmarshaler) {
	t.Helper()
	for i := range data {
		bad := bytes.Clone(data)
		bad[i] ^= 0x5a
		if err := fresh().UnmarshalBinary(bad); !errors.Is(err, engine.ErrFormat) {
			t.Fatalf("byte %d corrupted: error %v", i, err)
		}
	}
	for n := range len(data) {
		if err := fresh().UnmarshalBinary(data[:n]); err == nil {
			t.Fatalf("truncated to %d bytes: no error", n)
		}
	}
}

func TestAssociationErrors(t *testing.T) {
	for _, c := range []struct {
		n uint64
		p float64
	}{{0, 0.01}, {10, 0}, {10, 1}, {10, math.NaN()}, {math.MaxUint64, 1e-9}} {
		if _, err := NewAssociation(c.n, c.p); !errors.Is(err, engine.ErrParam) {
			t.Errorf("NewAssociation(%d, %v): %v", c.n, c.p, err)
		}
	}
	for _, c := range []struct {
		m uint64
		k uint32
	}{{0, 4}, {100, 0}, {100, engine.MaxK + 1}, {engine.MaxBits + 1, 4}} {
		if _, err := NewAssociationMK(c.m, c.k); !errors.Is(err, engine.ErrParam) {
			t.Errorf("NewAssociationMK(%d, %d): %v", c.m, c.k, err)
		}
	}
	if _, err := NewAssociation(10, 0.01, WithSecondArray()); !errors.Is(err, engine.ErrParam) {
		t.Errorf("NewAssociation accepted a membership option: %v", err)
	}
	a, _ := NewAssociation(10, 0.01)
	for _, s := range []Sets{0, 4, 255} {
		if err := a.Add([]byte("x"), s); !errors.Is(err, engine.ErrParam) {
			t.Errorf("Add with sets %d: %v", s, err)
		}
	}
}

// associationFixture builds the test sets: n1 keys of S1 only, n2 of S2
// only, nb of both added with InBoth and ns of both added separately to
// S1 and to S2.
type associationFixture struct {
	a                 *Association
	s1, s2, both, sep []uint64
}

func newAssociationFixture(t *testing.T, p float64, opts ...engine.Option) associationFixture {
	t.Helper()
	const n1, n2, nb, ns = 40000, 30000, 20000, 10000
	a, err := NewAssociation(n1+n2+nb+ns, p, opts...)
	if err != nil {
		t.Fatal(err)
	}
	fx := associationFixture{a: a,
		s1: members(memberBase, n1), s2: members(memberBase+n1, n2),
		both: members(memberBase+n1+n2, nb), sep: members(memberBase+n1+n2+nb, ns)}
	for _, add := range []struct {
		ks   []uint64
		sets []Sets
	}{{fx.s1, []Sets{InS1}}, {fx.s2, []Sets{InS2}}, {fx.both, []Sets{InBoth}}, {fx.sep, []Sets{InS1, InS2}}} {
		for _, k := range add.ks {
			for _, s := range add.sets {
				if err := a.Add(keyOf(k), s); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return fx
}

// TestAssociationAnswers checks that no member is answered "neither" or a
// wrong single set, and measures the clear-answer rate against the model
// (1 - f)^2 with a 99.9% binomial bound.
func TestAssociationAnswers(t *testing.T) {
	fx := newAssociationFixture(t, 0.01)
	a := fx.a
	n := uint64(len(fx.s1) + len(fx.s2) + len(fx.both) + 2*len(fx.sep)) // Add calls: each sets k bits
	var clear, trials uint64
	for _, c := range []struct {
		ks   []uint64
		want Answer
	}{{fx.s1, OnlyS1}, {fx.s2, OnlyS2}, {fx.both, Both}, {fx.sep, Both}} {
		for _, k := range c.ks {
			ans := a.Query(keyOf(k))
			if !ans.Has(c.want) {
				t.Fatalf("key %d of %v answered %v", k, c.want, ans)
			}
			if ans.Clear() && ans != c.want {
				t.Fatalf("key %d of %v answered the clear %v", k, c.want, ans)
			}
			if &c.ks[0] != &fx.sep[0] { // keys added to each set separately are never clear
				trials++
				if ans.Clear() {
					clear++
				}
			}
		}
	}
	model := a.ClearRate(n)
	lo, hi := fprstat.BinomialBounds(trials, 1-model, fprstat.Z999)
	t.Logf("m=%d k=%d: clear answers %.4f%% of %d members, model %.4f%%", a.M(), a.K(), 100*float64(clear)/float64(trials), trials, 100*model)
	if unclear := float64(trials - clear); unclear < lo || unclear > hi {
		t.Errorf("%v unclear answers, model %.1f, bounds [%.1f, %.1f]", unclear, (1-model)*float64(trials), lo, hi)
	}
	// Non-members: the rate of answers other than "neither" against
	// 1 - (1 - f)^3 (any of the three outcomes survives).
	const absent = 1000000
	var fp uint64
	for _, k := range members(absentBase, absent) {
		if !a.Query(keyOf(k)).None() {
			fp++
		}
	}
	f := a.CandidateFPR(n)
	pm := 1 - math.Pow(1-f, 3)
	lo, hi = fprstat.BinomialBounds(absent, pm, fprstat.Z999)
	t.Logf("non-members answered as members: %.4f%%, model %.4f%%", 100*float64(fp)/absent, 100*pm)
	if float64(fp) < lo || float64(fp) > hi {
		t.Errorf("%d non-members answered as members, bounds [%.1f, %.1f]", fp, lo, hi)
	}
}

func TestAssociationRoundTrip(t *testing.T) {
	fx := newAssociationFixture(t, 0.05, engine.WithSeed(11))
	data, err := fx.a.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var b Association
	if err := b.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := fx.a.WriteTo(&buf); err != nil || !bytes.Equal(buf.Bytes(), data) {
		t.Fatalf("WriteTo differs from MarshalBinary: %v", err)
	}
	var c Association
	if _, err := c.ReadFrom(&buf); err != nil {
		t.Fatal(err)
	}
	for _, ks := range [][]uint64{fx.s1, fx.s2, fx.both, fx.sep, members(absentBase, 10000)} {
		for _, k := range ks {
			want := fx.a.Query(keyOf(k))
			if got := b.Query(keyOf(k)); got != want {
				t.Fatalf("key %d: %v after the round trip, %v before", k, got, want)
			}
			if got := c.Query(keyOf(k)); got != want {
				t.Fatalf("key %d: %v after ReadFrom, %v before", k, got, want)
			}
		}
	}
	small, _ := NewAssociationMK(200, 3)
	_ = small.Add([]byte("a"), InS1)
	_ = small.Add([]byte("b"), InBoth)
	data, _ = small.MarshalBinary()
	checkCorruption(t, data, func() encoding.BinaryUnmarshaler { return new(Association) })
}

func FuzzAssociationDecode(f *testing.F) {
	a, _ := NewAssociationMK(300, 4)
	_ = a.Add([]byte("a"), InS2)
	data, _ := a.MarshalBinary()
	// A mutated envelope fails its checksums; the sealed form of each
	// input reaches the decoder.
	env := fuzzenv.AddSeeds(f, data)
	check := func(t *testing.T, data []byte) {
		var b Association
		if err := b.UnmarshalBinary(data); err != nil {
			return
		}
		if b.SizeBytes() > uint64(len(data)) {
			t.Fatalf("decoded %d bytes from %d", b.SizeBytes(), len(data))
		}
		_ = b.AddHash(7, InBoth)
		if !b.QueryHash(7).Has(Both) {
			t.Fatal("false negative on a decoded filter")
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check(t, data)
		if sealed := env.Seal(data); sealed != nil {
			check(t, sealed)
		}
	})
}

// TestAssociationGolden pins the encoding of a small association filter.
func TestAssociationGolden(t *testing.T) {
	a, err := NewAssociation(300, 0.01, engine.WithSeed(5))
	if err != nil {
		t.Fatal(err)
	}
	for i := range uint64(300) {
		_ = a.Add(keyOf(i), Sets(i%3+1))
	}
	data, _ := a.MarshalBinary()
	want := golden(t, "association.golden", data)
	if !bytes.Equal(data, want) {
		t.Error("encoding differs from testdata/association.golden")
	}
	var b Association
	if err := b.UnmarshalBinary(want); err != nil {
		t.Fatal(err)
	}
	for i := range uint64(300) {
		if ans := b.Query(keyOf(i)); !ans.Has(outcomeOf(Sets(i%3 + 1))) {
			t.Fatalf("golden key %d answered %v", i, ans)
		}
	}
}
