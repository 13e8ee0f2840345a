package blocked

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/store"
	"github.com/filterengine/filterengine/internal/testkit/fprstat"
	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

func TestScalableErrors(t *testing.T) {
	for name, err := range map[string]error{
		"hint=0":         second(NewScalable(0, 0.01)),
		"p=0":            second(NewScalable(10, 0)),
		"p=1":            second(NewScalable(10, 1)),
		"p=NaN":          second(NewScalable(10, math.NaN())),
		"growth=1":       second(NewScalable(10, 0.01, WithGrowth(1))),
		"growth=0":       second(NewScalable(10, 0.01, WithGrowth(0))),
		"growth=-3":      second(NewScalable(10, 0.01, WithGrowth(-3))),
		"growth=2000":    second(NewScalable(10, 0.01, WithGrowth(2000))),
		"r=0":            second(NewScalable(10, 0.01, WithTightening(0))),
		"r=1":            second(NewScalable(10, 0.01, WithTightening(1))),
		"r=NaN":          second(NewScalable(10, 0.01, WithTightening(math.NaN()))),
		"unknown option": second(NewScalable(10, 0.01, config.FamilyOption(struct{}{}))),
		"hint too large": second(NewScalable(math.MaxUint64, 0.01)),
		"zero marshal":   second(new(Scalable).MarshalBinary()),
	} {
		wantErr(t, name, err, engine.ErrParam)
	}
	// Scalable's options are not blocked.New's.
	wantErr(t, "New with WithGrowth", second(New(10, 0.01, WithGrowth(2))), engine.ErrParam)

	var z Scalable
	if z.Test([]byte("x")) || z.TestUint64(1) || z.Stages() != 0 || z.ModelFPR(10) != 0 {
		t.Error("zero Scalable is not empty")
	}
	out := []bool{true, true}
	if z.TestUint64s([]uint64{1, 2}, out) != 0 || out[0] || out[1] {
		t.Error("zero Scalable batch answers present")
	}
	wantPanic(t, "zero Add", "blocked.NewScalable", func() { z.Add([]byte("x")) })
	s, _ := NewScalable(10, 0.01)
	wantPanic(t, "short out", "out has 1 elements for 2 keys", func() { s.TestUint64s([]uint64{1, 2}, out[:1]) })
}

func second[T any](_ T, err error) error { return err }

// Stage i holds hint*s^i keys; 1e6 keys from hint 1000 fill 10 stages and
// open the 11th (capacity 1000*(2^10-1) = 1023000 > 1e6 > 511000).
func TestScalableStages(t *testing.T) {
	s, _ := NewScalable(1000, 0.01)
	if s.Stages() != 1 || s.Added() != 0 {
		t.Fatalf("new filter: %d stages, count %d", s.Stages(), s.Added())
	}
	s.AddUint64s(randomKeys(1, 1000))
	if s.Stages() != 1 {
		t.Fatalf("a full first stage opened another: %d stages", s.Stages())
	}
	s.AddUint64(7)
	if s.Stages() != 2 {
		t.Fatalf("key 1001 left %d stages", s.Stages())
	}
	s.AddUint64s(randomKeys(2, 1e6-1001))
	if s.Stages() != 10 || s.Added() != 1e6 {
		t.Errorf("1e6 keys: %d stages, count %d; want 10 stages", s.Stages(), s.Added())
	}
	for i, c := range s.caps {
		if c != 1000<<i || s.counts[i] > c {
			t.Errorf("stage %d: capacity %d, count %d", i, c, s.counts[i])
		}
	}
	if len(s.String()) > 200 || s.Growth() != 2 || s.Tightening() != 0.85 || s.P() != 0.01 {
		t.Errorf("String %q (%d bytes), growth %d, tightening %v", s.String(), len(s.String()), s.Growth(), s.Tightening())
	}
	if got := s.EstimatedCount(); math.Abs(got-1e6) > 0.03e6 {
		t.Errorf("EstimatedCount %.0f after 1e6 keys", got)
	}
	// The compound model stays below p at any count, and grows with it.
	prev := 0.0
	for _, n := range []uint64{1, 1e3, 1e4, 1e6, 1e7, 1e9, 1e12} {
		m := s.ModelFPR(n)
		if m > 0.01 || m < prev {
			t.Errorf("ModelFPR(%d) = %v after %v", n, m, prev)
		}
		prev = m
	}
}

func TestScalableNoFalseNegatives(t *testing.T) {
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		for how := range addMultiHow {
			t.Run(fmt.Sprint("add=", how), func(t *testing.T) {
				s, err := NewScalable(50, 0.01, engine.WithSeed(uint64(how)), WithGrowth(2+how%3))
				if err != nil {
					t.Fatal(err)
				}
				ks := randomKeys(uint64(how)+100, 9000)
				addMulti(s, how, ks[:3000])
				if s.Added() != 3000 || s.Stages() < 4 {
					t.Fatalf("count %d, %d stages", s.Added(), s.Stages())
				}
				checkMulti(t, s, ks, func(i int) bool { return i < 3000 })
			})
		}
	})
}

// After 1e7 keys into NewScalable(1e3, 0.01) the false positives on 1e6
// absent keys lie within the 99.9% binomial bound of the compound model
// (which assumes the stages independent) and below that of p itself.
func TestScalableFPR(t *testing.T) {
	n, trials := uint64(1e7), uint64(1e6)
	if testing.Short() {
		n = 1e6
	}
	s, _ := NewScalable(1e3, 0.01)
	s.AddUint64s(randomKeys(7, int(n)))
	out := make([]bool, trials)
	fp := float64(s.TestUint64s(absentKeys(int(trials)), out))
	model := s.ModelFPR(n)
	lo, hi := fprstat.BinomialBounds(trials, model, fprstat.Z999)
	_, hiP := fprstat.BinomialBounds(trials, 0.01, fprstat.Z999)
	t.Logf("%d keys, %d stages, %.2f bits/key: measured FPR %.4f%%, compound model %.4f%%, bound 1%%",
		n, s.Stages(), float64(s.M())/float64(n), 100*fp/float64(trials), 100*model)
	if fp < lo || fp > hi {
		t.Errorf("%.0f false positives of %d, model %v gives [%.0f, %.0f]", fp, trials, model, lo, hi)
	}
	if fp > hiP {
		t.Errorf("%.0f false positives of %d exceed p = 1%% (bound %.0f)", fp, trials, hiP)
	}
}

// A stage that cannot be built (here p_1 is below what a line per key
// reaches) saturates the filter: the newest stage takes every further key
// and none is lost.
func TestScalableSaturates(t *testing.T) {
	s, err := NewScalable(100, 0.01, WithTightening(1e-100))
	if err != nil {
		t.Fatal(err)
	}
	ks := randomKeys(3, 1000)
	s.AddUint64s(ks[:500])
	for _, k := range ks[500:] {
		s.AddUint64(k)
	}
	if s.Stages() != 1 || s.Added() != 1000 {
		t.Fatalf("%d stages, count %d", s.Stages(), s.Added())
	}
	checkMulti(t, s, ks, func(int) bool { return true })
	if m := s.ModelFPR(1000); m <= 0.01 {
		t.Errorf("ModelFPR of an overfull stage %v", m)
	}
	// Far past its capacity the stage's model is a probability that
	// climbs to 1, and is computed at all (the Poisson walk once did not
	// end from 2^53 keys per line).
	last := 0.0
	for _, n := range []uint64{1e6, 1e9, 1e14, 1e17, math.MaxUint64} {
		m := s.ModelFPR(n)
		if !(m >= last && m <= 1) {
			t.Errorf("ModelFPR(%d) = %v after %v", n, m, last)
		}
		last = m
	}
	if last != 1 {
		t.Errorf("ModelFPR(MaxUint64) = %v", last)
	}
}

// From stage 16 at p = 1%, r = 0.85, k = 8 costs more than 6% extra bits
// and the stages' k differ: the probe order is cut into runs of one k,
// each one set, and every path still answers alike.
func TestScalableMixedK(t *testing.T) {
	s, _ := NewScalable(1, 0.01)
	ks := randomKeys(21, 1<<16+1000)
	s.AddUint64s(ks[:1<<16])
	if s.Stages() != 17 || s.stages[15].K() != stageK || s.stages[16].K() == stageK || s.k != 0 {
		t.Fatalf("%d stages, k %d and %d, common k %d", s.Stages(), s.stages[15].K(), s.stages[16].K(), s.k)
	}
	// Probe order: stages 15 to 1 (k = 8), stage 16 with its one key,
	// stage 0 with its one key: three runs.
	if len(s.sets) != 3 {
		t.Errorf("%d sets for three runs of one k", len(s.sets))
	}
	checkMulti(t, s, ks, func(i int) bool { return i < 1<<16 })
}

func TestScalableTestAndAdd(t *testing.T) {
	s, _ := NewScalable(100, 0.01)
	ks := randomKeys(9, 5000)
	dups := 0
	for _, k := range ks {
		if s.TestAndAdd(keyBytes(k)) {
			dups++
		}
	}
	for _, k := range ks {
		if !s.TestAndAdd(keyBytes(k)) || !s.TestAndAddUint64(k) {
			t.Fatal("a seen key reported new")
		}
	}
	if s.Added() != uint64(len(ks)-dups) {
		t.Errorf("count %d after %d new keys", s.Added(), len(ks)-dups)
	}
	if dups > 50 {
		t.Errorf("%d of 5000 distinct keys reported seen at p = 1%%", dups)
	}
}

func TestScalableClone(t *testing.T) {
	s, _ := NewScalable(100, 0.01, engine.WithSeed(5))
	ks := randomKeys(4, 2000)
	s.AddUint64s(ks[:1000])
	c := s.Clone()
	c.AddUint64s(ks[1000:])
	checkMulti(t, c, ks, func(int) bool { return true })
	if s.Added() != 1000 || c.Added() != 2000 || s.Stages() == c.Stages() {
		t.Errorf("clone not independent: counts %d/%d, stages %d/%d", s.Added(), c.Added(), s.Stages(), c.Stages())
	}
	// The original's tests read its own stages, not the clone's: keys
	// only the clone holds test absent in it at about its FPR, per key
	// and in batch.
	c2 := s.Clone()
	extra := randomKeys(6, 5000)
	c2.AddUint64s(extra)
	out := make([]bool, len(extra))
	perKey := 0
	for _, k := range extra {
		perKey += int(b2u(s.TestUint64(k)))
	}
	if batch := s.TestUint64s(extra, out); perKey > 250 || batch > 250 {
		t.Errorf("the original finds %d (per key) and %d (batch) of %d keys added to its clone", perKey, batch, len(extra))
	}
}

func TestScalableCodec(t *testing.T) {
	s, _ := NewScalable(100, 0.02, engine.WithSeed(3), WithGrowth(3), WithTightening(0.7))
	ks := randomKeys(12, 3000)
	s.AddUint64s(ks[:1500])
	for _, d := range roundTrip(t, s, func() *Scalable { return new(Scalable) }, DecodeScalable) {
		if d.Stages() != s.Stages() || d.Added() != 1500 || d.Seed() != 3 || d.Growth() != 3 || d.Tightening() != 0.7 {
			t.Fatalf("decoded %v, want %v", d, s)
		}
		checkMulti(t, d, ks, func(i int) bool { return i < 1500 })
		d.AddUint64s(ks[1500:]) // a decoded filter keeps growing
		checkMulti(t, d, ks, func(int) bool { return true })
	}
	// Well-formed envelopes that no filter has.
	good, _ := s.MarshalBinary()
	h, payload, _ := store.DecodeEnvelope(good)
	for i, mutate := range []func(p []uint64, pl []byte){
		func(p []uint64, _ []byte) { p[0] = 0 },
		func(p []uint64, _ []byte) { p[1] = math.Float64bits(1.5) },
		func(p []uint64, _ []byte) { p[2] = 1 },
		func(p []uint64, _ []byte) { p[3] = math.Float64bits(0) },
		func(p []uint64, _ []byte) { p[4] = 0 },
		func(p []uint64, _ []byte) { p[4] = 1 << 40 },
		func(p []uint64, _ []byte) { p[5]++ },
		func(_ []uint64, pl []byte) { binary.LittleEndian.PutUint64(pl, 1<<50) },
		func(_ []uint64, pl []byte) { binary.LittleEndian.PutUint64(pl[8:], 65) },
		func(_ []uint64, pl []byte) { binary.LittleEndian.PutUint64(pl[24:], 1<<40) },
		// A capacity other than hint*s^i: a stage that never fills would
		// take every key and let the rate climb to 1.
		func(_ []uint64, pl []byte) { binary.LittleEndian.PutUint64(pl[16:], 1<<40) },
		func(_ []uint64, pl []byte) { binary.LittleEndian.PutUint64(pl[32+16:], 301) },
		// A stage before the newest that holds less than its capacity,
		// with the total count adjusted to match.
		func(p []uint64, pl []byte) {
			binary.LittleEndian.PutUint64(pl[24:], 99)
			p[5]--
		},
		// Counts whose sum wraps to the total.
		func(p []uint64, pl []byte) {
			last := 32 * (p[4] - 1)
			binary.LittleEndian.PutUint64(pl[last+24:], binary.LittleEndian.Uint64(pl[last+24:])+1<<63)
			binary.LittleEndian.PutUint64(pl[24:], binary.LittleEndian.Uint64(pl[24:])+1<<63)
		},
	} {
		p, pl := append([]uint64(nil), h.Params...), append([]byte(nil), payload...)
		mutate(p, pl)
		bad, _ := store.AppendEnvelope(nil, store.Header{Family: h.Family, Version: h.Version, Seed: h.Seed, Params: p}, pl)
		if _, err := DecodeScalable(bad); !errors.Is(err, engine.ErrFormat) {
			t.Errorf("mutation %d: error %v", i, err)
		}
	}
	blocked, _ := New(100, 0.01)
	other, _ := blocked.MarshalBinary()
	if _, err := DecodeScalable(other); !errors.Is(err, engine.ErrFormat) {
		t.Errorf("a blocked filter decoded as Scalable: %v", err)
	}
}

// The golden Scalable: keys 0..4999 (8 little-endian bytes) in
// NewScalable(1000, 0.01, WithSeed(2024)): three stages.
func TestScalableGolden(t *testing.T) {
	build := func() *Scalable {
		s, _ := NewScalable(1000, 0.01, engine.WithSeed(2024))
		for k := range uint64(5000) {
			s.Add(keyBytes(k))
		}
		return s
	}
	g := checkGolden(t, "scalable_h1000_p1_n5000_seed2024.bin", build, DecodeScalable)
	if g.Stages() != 3 || g.Added() != 5000 {
		t.Errorf("golden: %v", g)
	}
	checkGoldenFP(t, g, 0, 5000, 246)
}

func FuzzDecodeScalable(f *testing.F) {
	s, _ := NewScalable(20, 0.01, WithGrowth(2))
	s.AddUint64s(randomKeys(1, 70))
	good, _ := s.MarshalBinary()
	fuzzDecoder(f, [][]byte{good}, DecodeScalable)
}
