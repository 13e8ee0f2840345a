package shifting

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/fprstat"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/store"
	"github.com/filterengine/filterengine/internal/testkit/fuzzenv"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares data with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, data []byte) []byte {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run Golden -update to create it)", err)
	}
	return want
}

// TestMembershipPadding rejects an encoding, checksums recomputed, with a
// bit set where no key can set one.
func TestMembershipPadding(t *testing.T) {
	f, _ := NewMK(100, 4)
	last := f.M() + wBar - 2
	for _, bit := range []uint64{last + 1, 64*padWords(f.M()) - 1} {
		g, _ := NewMK(100, 4)
		g.st.Words()[bit/64] |= 1 << (bit % 64)
		data, _ := g.MarshalBinary()
		var h Filter
		if err := h.UnmarshalBinary(data); !errors.Is(err, engine.ErrFormat) {
			t.Errorf("padding bit %d set: error %v", bit, err)
		}
	}
	g, _ := NewMK(100, 4)
	g.st.Words()[last/64] |= 1 << (last % 64)
	data, _ := g.MarshalBinary()
	var h Filter
	if err := h.UnmarshalBinary(data); err != nil {
		t.Errorf("highest reachable bit %d set: %v", last, err)
	}
}

func FuzzMembershipDecode(f *testing.F) {
	g, _ := NewMK(200, 4, WithSecondArray())
	g.AddUint64s(members(memberBase, 10))
	data, _ := g.MarshalBinary()
	// A mutated envelope fails its checksums; the sealed form of each
	// input reaches the decoder.
	env := fuzzenv.AddSeeds(f, data)
	f.Add([]byte("\x89FLTENG\n"))
	check := func(t *testing.T, data []byte) {
		var h Filter
		err := h.UnmarshalBinary(data)
		d, errD := Decode(data)
		if (err == nil) != (errD == nil) {
			t.Fatalf("UnmarshalBinary: %v, Decode: %v", err, errD)
		}
		if err != nil {
			return
		}
		if again, _ := d.MarshalText(); store.UnmarshalText(again, new(Filter).UnmarshalBinary) != nil {
			t.Fatal("the text form of a decoded filter does not decode")
		}
		if h.SizeBytes() > uint64(len(data)) {
			t.Fatalf("decoded %d bytes of array from %d bytes of input", h.SizeBytes(), len(data))
		}
		out := make([]bool, 3)
		h.TestUint64s([]uint64{1, 2, 3}, out)
		h.AddHash(12345)
		if !h.TestHash(12345) {
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

// TestMembershipGolden decodes the pinned encoding of New(1000, 0.01) with
// seed 3 holding keys 0..999 and checks its answers.
func TestMembershipGolden(t *testing.T) {
	f, err := New(1000, 0.01, engine.WithSeed(3))
	if err != nil {
		t.Fatal(err)
	}
	ks := members(0, 1000)
	f.AddUint64s(ks)
	data, _ := f.MarshalBinary()
	want := golden(t, "membership.golden", data)
	if !bytes.Equal(data, want) {
		t.Error("encoding differs from testdata/membership.golden: the format or the probe positions changed")
	}
	var g Filter
	if err := g.UnmarshalBinary(want); err != nil {
		t.Fatal(err)
	}
	out := make([]bool, len(ks))
	if hits := g.TestUint64s(ks, out); hits != len(ks) {
		t.Fatalf("golden filter holds %d of %d keys", hits, len(ks))
	}
	absent := members(absentBase, 100000)
	out = make([]bool, len(absent))
	fp := g.TestUint64s(absent, out)
	lo, hi := fprstat.BinomialBounds(uint64(len(absent)), g.ModelFPR(1000), fprstat.Z999)
	if float64(fp) < lo || float64(fp) > hi {
		t.Errorf("golden filter: %d false positives in %d, bounds [%.0f, %.0f]", fp, len(absent), lo, hi)
	}
}

// The decoders' own checks, reached with right checksums (an encoder
// writes the bytes): a bit past the last a key can set, in the
// association's array, the multiplicity's array and the membership
// filter's second array, and a multiplicity counter that disagrees with
// its bit, are format errors; the last settable bit is not. (Corrupting a
// byte of an encoding fails the checksums first, so these checks had no
// test that reached them.)
func TestDecodersCheckPaddingAndCounters(t *testing.T) {
	setBit := func(w []uint64, bit uint64) { w[bit/64] |= 1 << (bit % 64) }
	wantErr := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, engine.ErrFormat) {
			t.Errorf("%s: error %v, want a format error", what, err)
		}
	}
	// Association: positions up to m + wBar - 2, as membership's.
	for _, c := range []struct {
		bit uint64
		ok  bool
	}{{100 + wBar - 2, true}, {100 + wBar - 1, false}, {64*padWords(100) - 1, false}} {
		a, _ := NewAssociationMK(100, 4)
		setBit(a.st.Words(), c.bit)
		data, _ := a.MarshalBinary()
		_, err := DecodeAssociation(data)
		if c.ok && err != nil {
			t.Errorf("association, last settable bit %d: %v", c.bit, err)
		} else if !c.ok {
			wantErr("association, padding bit", err)
		}
	}
	// Multiplicity: positions up to m + maxCount - 2.
	x, _ := NewMultiplicityMK(100, 4, 5)
	setBit(x.st.Words(), 100+5-1)
	data, _ := x.MarshalBinary()
	_, err := DecodeMultiplicity(data)
	wantErr("multiplicity, padding bit", err)
	// A counter that says set where the bit is clear, and the reverse.
	y, _ := NewMultiplicityMK(100, 4, 5, WithCounters())
	y.counts[7] = 1
	data, _ = y.MarshalBinary()
	_, err = DecodeMultiplicity(data)
	wantErr("multiplicity, a counter without its bit", err)
	z, _ := NewMultiplicityMK(100, 4, 5, WithCounters())
	setBit(z.st.Words(), 7)
	data, _ = z.MarshalBinary()
	_, err = DecodeMultiplicity(data)
	wantErr("multiplicity, a bit without its counter", err)
	// Membership's second array: bits up to m2 - 1.
	g, _ := NewMK(200, 4, WithSecondArray())
	w := g.st.Words()
	setBit(w[g.p.Base2:], g.p.M2)
	data, _ = g.MarshalBinary()
	var h Filter
	wantErr("membership, second array's padding bit", h.UnmarshalBinary(data))
}
