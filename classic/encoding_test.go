package classic

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/fuzzenv"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const goldenPath = "testdata/classic-v1.golden"

// goldenFilter is the filter pinned by the golden file: m not a multiple
// of 64, a seed, and keys "key-0".."key-99".
func goldenFilter(t testing.TB) *Filter {
	f, err := NewMK(1000, 5, engine.WithSeed(42))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		f.Add([]byte("key-" + string(rune('0'+i/10)) + string(rune('0'+i%10))))
	}
	return f
}

func TestGolden(t *testing.T) {
	want, err := goldenFilter(t).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(goldenPath, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("encoding of the golden filter changed: the format needs a version bump and a reader for version 1")
	}
	var f Filter
	if err := f.UnmarshalBinary(got); err != nil {
		t.Fatal(err)
	}
	if f.M() != 1000 || f.K() != 5 || f.Seed() != 42 {
		t.Fatalf("golden decoded as m=%d k=%d seed=%d", f.M(), f.K(), f.Seed())
	}
	for i := range 100 {
		if !f.Test([]byte("key-" + string(rune('0'+i/10)) + string(rune('0'+i%10)))) {
			t.Fatalf("golden filter lost key %d", i)
		}
	}
}

func FuzzDecode(f *testing.F) {
	good, _ := goldenFilter(f).MarshalBinary()
	// A mutated envelope fails its checksums; the sealed form of each
	// input reaches the decoder.
	env := fuzzenv.AddSeeds(f, good)
	f.Add([]byte{})
	check := func(t *testing.T, data []byte) {
		var a, b Filter
		errA := a.UnmarshalBinary(data)
		if d, err := Decode(data); (err == nil) != (errA == nil) || err == nil && !d.Equal(&a) {
			t.Fatalf("Decode (%v) and UnmarshalBinary (%v) disagree", err, errA)
		}
		n, errB := b.ReadFrom(bytes.NewReader(data))
		// ReadFrom takes one envelope from a stream, so it may accept a
		// prefix; UnmarshalBinary takes exactly one envelope.
		if errB == nil {
			var c Filter
			if err := c.UnmarshalBinary(data[:n]); err != nil || !c.Equal(&b) {
				t.Fatalf("ReadFrom accepted %d bytes that UnmarshalBinary rejects: %v", n, err)
			}
		}
		if errA != nil {
			return
		}
		if errB != nil || n != int64(len(data)) {
			t.Fatalf("UnmarshalBinary accepted what ReadFrom rejects: %v", errB)
		}
		again, err := a.MarshalBinary()
		if err != nil || !bytes.Equal(again, data) || !a.Equal(&b) {
			t.Fatal("a decoded filter does not re-encode to its input")
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check(t, data)
		if sealed := env.Seal(data); sealed != nil {
			check(t, sealed)
		}
	})
}
