package filetest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/store"
)

// Encoding is one type's valid encoding, its decoder and the versions of
// its format that were superseded.
type Encoding struct {
	Name       string
	Good       func() ([]byte, error)
	Decode     func([]byte) error
	Superseded []uint16
}

// RunOtherVersions checks that each decoder reads only its format's
// current version: its good encoding, re-enveloped (checksums valid)
// with each version but its own of 0, the superseded ones, current+1 and
// 0xffff, is an error wrapping engine.ErrFormat that names that
// version, and the good encoding itself decodes.
func RunOtherVersions(t *testing.T, encodings ...Encoding) {
	for _, e := range encodings {
		t.Run(e.Name, func(t *testing.T) {
			good, err := e.Good()
			if err != nil {
				t.Fatal(err)
			}
			otherVersions(t, good, e.Decode, e.Superseded)
		})
	}
}

func otherVersions(t *testing.T, good []byte, decode func([]byte) error, superseded []uint16) {
	h, payload, err := store.DecodeEnvelope(good)
	if err != nil {
		t.Fatal(err)
	}
	if err := decode(good); err != nil {
		t.Fatalf("the current version %d: %v", h.Version, err)
	}
	for _, v := range append([]uint16{0, h.Version + 1, 0xffff}, superseded...) {
		if v == h.Version {
			continue
		}
		o := h
		o.Version = v
		data, err := store.AppendEnvelope(nil, o, payload)
		if err != nil {
			t.Fatal(err)
		}
		err = decode(data)
		if !errors.Is(err, engine.ErrFormat) || !strings.Contains(err.Error(), fmt.Sprintf("version %d", v)) {
			t.Errorf("%v version %d (current %d): error %v, want one wrapping engine.ErrFormat naming the version", h.Family, v, h.Version, err)
		}
	}
}
