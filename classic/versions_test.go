package classic

import (
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/filetest"
)

// Each type reads only its format's current version.
func TestOtherVersions(t *testing.T) {
	f, _ := New(1000, 0.01)
	f.Add([]byte("a"))
	d, _ := NewDynamic(100, 0.01)
	d.Add([]byte("a"))
	r, _ := NewRetouched(1000, 0.01)
	r.Add([]byte("a"))
	filetest.RunOtherVersions(t,
		filetest.Encoding{Name: "Filter", Good: f.MarshalBinary, Decode: func(b []byte) error { _, err := Decode(b); return err }},
		filetest.Encoding{Name: "Dynamic", Good: d.MarshalBinary, Decode: func(b []byte) error { _, err := DecodeDynamic(b); return err }},
		filetest.Encoding{Name: "Retouched", Good: r.MarshalBinary, Decode: func(b []byte) error { _, err := DecodeRetouched(b); return err }},
	)
}
