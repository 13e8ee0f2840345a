package shifting

import (
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/keyforms"
)

func TestKeyForms(t *testing.T) {
	for _, seed := range []uint64{0, 0x5eed} {
		keyforms.Check(t, func() *Filter {
			f, err := New(5000, 0.01, engine.WithSeed(seed))
			if err != nil {
				t.Fatal(err)
			}
			return f
		}, func(t *testing.T, f *Filter) *Filter {
			data, err := f.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			var g Filter
			if err := g.UnmarshalBinary(data); err != nil {
				t.Fatal(err)
			}
			return &g
		})
	}
}

func TestKeyFormsAllocs(t *testing.T) {
	f, err := New(1000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	keyforms.CheckAllocs(t, f)
}
