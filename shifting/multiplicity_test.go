package shifting

import (
	"bytes"
	"encoding"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/fprstat"
	"github.com/filterengine/filterengine/internal/testkit/fuzzenv"
)

func TestMultiplicityErrors(t *testing.T) {
	for _, c := range []struct {
		n   uint64
		p   float64
		max uint32
	}{{0, 0.01, 8}, {10, 0, 8}, {10, 1, 8}, {10, math.NaN(), 8}, {math.MaxUint64, 1e-9, 8}, {10, 0.01, 0}, {10, 0.01, MaxCount + 1}} {
		if _, err := NewMultiplicity(c.n, c.p, c.max); !errors.Is(err, engine.ErrParam) {
			t.Errorf("NewMultiplicity(%d, %v, %d): %v", c.n, c.p, c.max, err)
		}
	}
	for _, c := range []struct {
		m uint64
		k uint32
	}{{0, 4}, {100, 0}, {100, engine.MaxK + 1}, {engine.MaxBits + 1, 4}} {
		if _, err := NewMultiplicityMK(c.m, c.k, 8); !errors.Is(err, engine.ErrParam) {
			t.Errorf("NewMultiplicityMK(%d, %d): %v", c.m, c.k, err)
		}
	}
	if _, err := NewMultiplicity(10, 0.01, 8, WithSecondArray()); !errors.Is(err, engine.ErrParam) {
		t.Errorf("NewMultiplicity accepted a membership option: %v", err)
	}
	x, _ := NewMultiplicity(10, 0.01, 8)
	for _, c := range []uint32{0, 9} {
		if err := x.Add([]byte("x"), c); !errors.Is(err, engine.ErrParam) {
			t.Errorf("Add with count %d: %v", c, err)
		}
	}
	if err := x.Update([]byte("x"), 0, 1); !errors.Is(err, engine.ErrParam) {
		t.Errorf("Update without counters: %v", err)
	}
}

// multiplicityFixture adds n keys with counts uniform in [1, maxCount].
func multiplicityFixture(t *testing.T, n uint64, maxCount uint32, opts ...engine.Option) (*Multiplicity, []uint64, []uint32) {
	t.Helper()
	x, err := NewMultiplicity(n, 0.01, maxCount, opts...)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(9, 9))
	ks := members(memberBase, n)
	cs := make([]uint32, n)
	for i, k := range ks {
		cs[i] = 1 + r.Uint32N(maxCount)
		if err := x.Add(keyOf(k), cs[i]); err != nil {
			t.Fatal(err)
		}
	}
	return x, ks, cs
}

// TestMultiplicityNeverUnder checks that no key is reported below its
// count, and measures the exact-answer rate against the model
// Σ_c (1 - f)^(maxCount - c) / maxCount with a 99.9% binomial bound.
func TestMultiplicityNeverUnder(t *testing.T) {
	const n, maxCount = 100000, 16
	x, ks, cs := multiplicityFixture(t, n, maxCount)
	var exact uint64
	var model float64
	for i, k := range ks {
		got := x.Count(keyOf(k))
		if got < cs[i] {
			t.Fatalf("key %d of count %d reported %d", k, cs[i], got)
		}
		if got == cs[i] {
			exact++
		}
		model += 1 - x.OverReportRate(n, cs[i])
	}
	model /= n
	lo, hi := fprstat.BinomialBounds(n, 1-model, fprstat.Z999)
	t.Logf("m=%d k=%d max %d: exact counts %.3f%%, model %.3f%%", x.M(), x.K(), maxCount, 100*float64(exact)/n, 100*model)
	if over := float64(n - exact); over < lo || over > hi {
		t.Errorf("%v over-reports, model %.1f, bounds [%.1f, %.1f]", over, (1-model)*n, lo, hi)
	}
	// 1e6 absent keys: each of the maxCount counts survives with f, so a
	// key reports 0 with probability (1 - f)^maxCount.
	const absent = 1000000
	var zero uint64
	for _, k := range members(absentBase, absent) {
		if x.Count(keyOf(k)) == 0 {
			zero++
		}
	}
	pz := 1 - x.OverReportRate(n, 0)
	lo, hi = fprstat.BinomialBounds(absent, pz, fprstat.Z999)
	t.Logf("absent keys reported 0: %.3f%%, model %.3f%%", 100*float64(zero)/absent, 100*pz)
	if float64(zero) < lo || float64(zero) > hi {
		t.Errorf("%d of %d absent keys reported 0, bounds [%.1f, %.1f]", zero, absent, lo, hi)
	}
}

// TestMultiplicityUpdate moves counts down and up with the counting
// variant and checks that no key is ever under-reported.
func TestMultiplicityUpdate(t *testing.T) {
	const n, maxCount = 20000, 20
	x, ks, cs := multiplicityFixture(t, n, maxCount, WithCounters())
	r := rand.New(rand.NewPCG(4, 4))
	for round := range 3 {
		for i, k := range ks {
			to := r.Uint32N(maxCount + 1) // 0 removes the key
			if err := x.Update(keyOf(k), cs[i], to); err != nil {
				t.Fatalf("round %d key %d: %v", round, k, err)
			}
			cs[i] = to
		}
		var removedZero, removed, live uint64
		for i, k := range ks {
			got := x.Count(keyOf(k))
			if got < cs[i] {
				t.Fatalf("round %d: key %d of count %d reported %d", round, k, cs[i], got)
			}
			if cs[i] == 0 {
				removed++
				if got == 0 {
					removedZero++
				}
			} else {
				live++
			}
		}
		// The counters make the array exactly that of the live keys, so a
		// removed key reports 0 as often as a never-added one: when none
		// of the maxCount counts survives.
		model := 1 - x.OverReportRate(live, 0)
		lo, hi := fprstat.BinomialBounds(removed, model, fprstat.Z999)
		if float64(removedZero) < lo || float64(removedZero) > hi {
			t.Errorf("round %d: %d of %d removed keys report 0, model %.1f, bounds [%.1f, %.1f]",
				round, removedZero, removed, model*float64(removed), lo, hi)
		}
	}
	before, _ := x.MarshalBinary()
	if err := x.Update([]byte("never added"), 3, 1); !errors.Is(err, engine.ErrParam) {
		t.Errorf("Update from a count the key never had: %v", err)
	}
	if after, _ := x.MarshalBinary(); !bytes.Equal(before, after) {
		t.Error("a refused Update changed the filter")
	}
}

func TestMultiplicityRoundTrip(t *testing.T) {
	for _, opts := range [][]engine.Option{nil, {WithCounters(), engine.WithSeed(2)}} {
		x, ks, _ := multiplicityFixture(t, 5000, 30, opts...)
		data, err := x.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var y, z Multiplicity
		if err := y.UnmarshalBinary(data); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := x.WriteTo(&buf); err != nil || !bytes.Equal(buf.Bytes(), data) {
			t.Fatalf("WriteTo differs from MarshalBinary: %v", err)
		}
		if _, err := z.ReadFrom(&buf); err != nil {
			t.Fatal(err)
		}
		if y.HasCounters() != x.HasCounters() || y.MaxCount() != x.MaxCount() {
			t.Fatal("parameters changed in the round trip")
		}
		for _, k := range append(ks, members(absentBase, 5000)...) {
			want := x.Count(keyOf(k))
			if y.Count(keyOf(k)) != want || z.Count(keyOf(k)) != want {
				t.Fatalf("key %d answers differently after the round trip", k)
			}
		}
		small, _ := NewMultiplicityMK(150, 3, 10, opts...)
		_ = small.Add([]byte("a"), 4)
		data, _ = small.MarshalBinary()
		checkCorruption(t, data, func() encoding.BinaryUnmarshaler { return new(Multiplicity) })
	}
}

func FuzzMultiplicityDecode(f *testing.F) {
	var seeds [][]byte
	for _, opts := range [][]engine.Option{nil, {WithCounters()}} {
		x, _ := NewMultiplicityMK(200, 3, 12, opts...)
		_ = x.Add([]byte("a"), 5)
		data, _ := x.MarshalBinary()
		seeds = append(seeds, data)
	}
	// A mutated envelope fails its checksums; the sealed form of each
	// input reaches the decoder.
	env := fuzzenv.AddSeeds(f, seeds...)
	check := func(t *testing.T, data []byte) {
		var x Multiplicity
		if err := x.UnmarshalBinary(data); err != nil {
			return
		}
		if x.SizeBytes() > uint64(len(data)) {
			t.Fatalf("decoded %d bytes from %d", x.SizeBytes(), len(data))
		}
		_ = x.AddHash(7, 1)
		if x.CountHash(7) < 1 {
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

// TestMultiplicityGolden pins the encoding of a small counting ShBF_x.
func TestMultiplicityGolden(t *testing.T) {
	x, err := NewMultiplicity(200, 0.01, 8, WithCounters(), engine.WithSeed(6))
	if err != nil {
		t.Fatal(err)
	}
	for i := range uint64(200) {
		_ = x.Add(keyOf(i), uint32(i%8+1))
	}
	data, _ := x.MarshalBinary()
	want := golden(t, "multiplicity.golden", data)
	if !bytes.Equal(data, want) {
		t.Error("encoding differs from testdata/multiplicity.golden")
	}
	var y Multiplicity
	if err := y.UnmarshalBinary(want); err != nil {
		t.Fatal(err)
	}
	for i := range uint64(200) {
		if c := y.Count(keyOf(i)); c < uint32(i%8+1) {
			t.Fatalf("golden key %d reported %d, count %d", i, c, i%8+1)
		}
	}
}

// Update with a from the key was not recorded with changes nothing and
// errs, also when two of its probes share a counter holding 1 (a check
// for non-zero counters passed there, and the second decrement wrapped
// the counter to 255 with its bit clear: the filter under-reported
// another key and no longer decoded), and also when from == to.
func TestMultiplicityUpdateWrongFrom(t *testing.T) {
	x, _ := NewMultiplicityMK(2, 2, 4, WithCounters())
	if err := x.AddHash(1<<31, 1); err != nil { // probes positions 0 and 1
		t.Fatal(err)
	}
	before, _ := x.MarshalBinary()
	for _, c := range []struct{ from, to uint32 }{{1, 0}, {1, 1}, {1, 2}} {
		if err := x.UpdateHash(1, c.from, c.to); err == nil { // hash 1 probes position 0 twice
			t.Errorf("Update(%d -> %d) of a key not recorded so: no error", c.from, c.to)
		}
	}
	after, _ := x.MarshalBinary()
	if !bytes.Equal(after, before) || x.CountHash(1<<31) != 1 {
		t.Fatal("a refused Update changed the filter")
	}
	if _, err := DecodeMultiplicity(after); err != nil {
		t.Fatal(err)
	}
}
