package blocked

import (
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/filetest"
)

// Each type reads only its format's current version; Window's superseded
// version 1 (generations one after another) included.
func TestOtherVersions(t *testing.T) {
	f, _ := New(1000, 0.01)
	f.AddUint64s([]uint64{1, 2, 3})
	n, _ := NewNarrow(1000, 0.01, 128)
	n.AddUint64s([]uint64{1, 2, 3})
	s, _ := NewScalable(100, 0.01)
	s.AddUint64s(randomKeys(1, 300))
	w, _ := NewWindow(100, 0.01, 3)
	w.AddUint64s(randomKeys(2, 300))
	filetest.RunOtherVersions(t,
		filetest.Encoding{Name: "Filter", Good: f.MarshalBinary, Decode: func(b []byte) error { _, err := Decode(b); return err }},
		filetest.Encoding{Name: "Narrow", Good: n.MarshalBinary, Decode: func(b []byte) error { _, err := DecodeNarrow(b); return err }},
		filetest.Encoding{Name: "Scalable", Good: s.MarshalBinary, Decode: func(b []byte) error { _, err := DecodeScalable(b); return err }},
		filetest.Encoding{Name: "Window", Good: w.MarshalBinary, Decode: func(b []byte) error { _, err := DecodeWindow(b); return err }, Superseded: []uint16{1}},
	)
}
