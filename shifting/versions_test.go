package shifting

import (
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/filetest"
)

// Each type reads only its format's current version.
func TestOtherVersions(t *testing.T) {
	f, _ := New(1000, 0.01)
	f.Add([]byte("a"))
	a, _ := NewAssociation(1000, 0.01)
	x, _ := NewMultiplicity(1000, 0.01, 7)
	filetest.RunOtherVersions(t,
		filetest.Encoding{Name: "Filter", Good: f.MarshalBinary, Decode: func(b []byte) error { _, err := Decode(b); return err }},
		filetest.Encoding{Name: "Association", Good: a.MarshalBinary, Decode: func(b []byte) error { _, err := DecodeAssociation(b); return err }},
		filetest.Encoding{Name: "Multiplicity", Good: x.MarshalBinary, Decode: func(b []byte) error { _, err := DecodeMultiplicity(b); return err }},
	)
}
