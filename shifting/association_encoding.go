package shifting

import (
	"io"
	"runtime"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/store"
)

// associationVersion is the ShBF_A format: params (m, k, w̄), payload the
// padded array as little-endian words.
const associationVersion = 1

func (a *Association) header() store.Header {
	return store.Header{Family: store.FamilyAssociation, Version: associationVersion, Seed: a.seed,
		Params: []uint64{a.m, uint64(a.k), wBar}}
}

// MarshalBinary encodes a in the engine envelope.
func (a *Association) MarshalBinary() ([]byte, error) {
	out := make([]byte, 0, store.HeaderSize+a.SizeBytes())
	out, err := store.AppendEnvelope(out, a.header(), store.WordsBytes(a.bits()))
	runtime.KeepAlive(a.st)
	return out, err
}

// WriteTo writes the encoding of a to w.
func (a *Association) WriteTo(w io.Writer) (int64, error) {
	n, err := store.WriteEnvelope(w, a.header(), store.WordsBytes(a.bits()))
	runtime.KeepAlive(a.st)
	return n, err
}

// UnmarshalBinary replaces a with the filter encoded in data.
func (a *Association) UnmarshalBinary(data []byte) error {
	return store.Unmarshal(data, a.decode)
}

// ReadFrom replaces a with the filter read from r, allocating in
// proportion to the bytes read.
func (a *Association) ReadFrom(r io.Reader) (int64, error) {
	return store.ReadFrom(r, a.decode)
}

func (a *Association) decode(h store.Header, payload []byte) error {
	return a.decodeSource(h, store.CopySource(payload))
}

// decodeSource replaces a by the filter of header h whose words come from
// src: copied, or used in place by OpenAssociation and ViewAssociation.
func (a *Association) decodeSource(h store.Header, src store.Source) error {
	return a.decodeMode(h, src, engine.HugePagesAuto)
}

// decodeMode is decodeSource with the placement of a copy.
func (a *Association) decodeMode(h store.Header, src store.Source, mode engine.HugePageMode) error {
	payload := src.Bytes()
	if err := h.Expect(store.FamilyAssociation, associationVersion, 3); err != nil {
		return err
	}
	m, k, wbar := h.Params[0], h.Params[1], h.Params[2]
	if err := errs.CheckMK(m, uint32(min(k, engine.MaxK+1)), engine.MaxK); err != nil {
		return errs.FormatErrorf("shifting association: %v", err)
	}
	if wbar != wBar {
		return errs.FormatErrorf("shifting association: w̄ = %d, this reader knows %d", wbar, wBar)
	}
	if uint64(len(payload)) != 8*padWords(m) {
		return errs.FormatErrorf("shifting association: %d payload bytes for m = %d, want %d", len(payload), m, 8*padWords(m))
	}
	if err := checkPaddingBytes(payload, m+wBar-2); err != nil {
		return err
	}
	st, err := src.Storage(0, 8*padWords(m), padWords(m), mode)
	if err != nil {
		return err
	}
	*a = Association{st: st, m: m, k: uint32(k), seed: h.Seed}
	return nil
}
