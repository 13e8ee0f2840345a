// Package fuzzenv lets a decoder's fuzz target reach the decoder past
// engine's envelope. Both of the envelope's checksums cover every byte, so
// a mutated envelope almost always fails store.DecodeEnvelope and the
// decoder proper sees only the seeds. A target therefore also reads each
// input as the raw form of an envelope, its parameters (8 little-endian
// bytes each) followed by its payload, and seals it with the family,
// version and seed of its first seed and right checksums, as a hostile
// writer would:
//
//	env := fuzzenv.AddSeeds(f, good, old)
//	f.Fuzz(func(t *testing.T, data []byte) {
//		check(t, data)
//		if sealed := env.Seal(data); sealed != nil {
//			check(t, sealed)
//		}
//	})
//
// Only _test files import it.
package fuzzenv

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/filterengine/filterengine/internal/store"
)

// Template is what Seal keeps of the first seed's header: everything but
// the parameters' values and the payload.
type Template struct {
	Family  store.Family
	Version uint16
	Seed    uint64
	NParams int // parameters Seal takes from the front of its input
}

// AddSeeds adds to f's corpus each seed, its header alone and, when the
// seed is an envelope with the first seed's parameter count, its raw form
// (which Seal turns back into the seed if it has the first seed's family,
// version and hash seed). It returns the first seed's template and fails
// f if the first seed is not a valid envelope.
func AddSeeds(f *testing.F, seeds ...[]byte) Template {
	f.Helper()
	tmpl, corpus, err := Corpus(seeds...)
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range corpus {
		f.Add(c)
	}
	return tmpl
}

// Corpus is AddSeeds without a testing.F: the first seed's template and
// the inputs AddSeeds adds, in order.
func Corpus(seeds ...[]byte) (Template, [][]byte, error) {
	if len(seeds) == 0 {
		return Template{}, nil, fmt.Errorf("fuzzenv: no seeds")
	}
	h0, _, err := store.DecodeEnvelope(seeds[0])
	if err != nil {
		return Template{}, nil, fmt.Errorf("fuzzenv: the first seed: %w", err)
	}
	tmpl := Template{Family: h0.Family, Version: h0.Version, Seed: h0.Seed, NParams: len(h0.Params)}
	var corpus [][]byte
	for _, s := range seeds {
		corpus = append(corpus, s)
		if len(s) >= store.HeaderSize {
			corpus = append(corpus, s[:store.HeaderSize])
		}
		if raw, np, err := Raw(s); err == nil && np == tmpl.NParams {
			corpus = append(corpus, raw)
		}
	}
	return tmpl, corpus, nil
}

// Raw returns the raw form of a valid envelope, its parameters (8
// little-endian bytes each) followed by its payload, and its parameter
// count.
func Raw(envelope []byte) ([]byte, int, error) {
	h, payload, err := store.DecodeEnvelope(envelope)
	if err != nil {
		return nil, 0, err
	}
	raw := make([]byte, 0, 8*len(h.Params)+len(payload))
	for _, p := range h.Params {
		raw = binary.LittleEndian.AppendUint64(raw, p)
	}
	return append(raw, payload...), len(h.Params), nil
}

// Seal reads data as t.NParams parameters (8 little-endian bytes each)
// followed by a payload and returns them as an envelope of t's family,
// version and seed with right checksums: an input store.DecodeEnvelope
// accepts. It returns nil when data is shorter than the parameters.
func (t Template) Seal(data []byte) []byte {
	if t.NParams < 0 || len(data) < 8*t.NParams {
		return nil
	}
	params := make([]uint64, t.NParams)
	for i := range params {
		params[i] = binary.LittleEndian.Uint64(data[8*i:])
	}
	h := store.Header{Family: t.Family, Version: t.Version, Seed: t.Seed, Params: params}
	sealed, err := store.AppendEnvelope(make([]byte, 0, store.HeaderSize+len(data)-8*t.NParams), h, data[8*t.NParams:])
	if err != nil { // more than store.MaxParams: no first seed has that
		return nil
	}
	return sealed
}
