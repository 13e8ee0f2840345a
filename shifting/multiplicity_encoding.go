package shifting

import (
	"io"
	"runtime"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/store"
)

// multiplicityVersion is the ShBF_x format: params (m, k, w̄, maxCount,
// counters 0 or 1), payload the padded array as little-endian words, then
// with counters one byte per bit 0 .. m+maxCount-2.
const multiplicityVersion = 1

func (x *Multiplicity) header() store.Header {
	withCounters := uint64(0)
	if x.counts != nil {
		withCounters = 1
	}
	return store.Header{Family: store.FamilyMultiplicity, Version: multiplicityVersion, Seed: x.seed,
		Params: []uint64{x.m, uint64(x.k), wBar, uint64(x.maxCount), withCounters}}
}

// MarshalBinary encodes x in the engine envelope.
func (x *Multiplicity) MarshalBinary() ([]byte, error) {
	out := make([]byte, 0, store.HeaderSize+x.SizeBytes())
	out, err := store.AppendEnvelope(out, x.header(), store.WordsBytes(x.bits()), x.counts)
	runtime.KeepAlive(x.st)
	return out, err
}

// WriteTo writes the encoding of x to w.
func (x *Multiplicity) WriteTo(w io.Writer) (int64, error) {
	n, err := store.WriteEnvelope(w, x.header(), store.WordsBytes(x.bits()), x.counts)
	runtime.KeepAlive(x.st)
	return n, err
}

// UnmarshalBinary replaces x with the filter encoded in data.
func (x *Multiplicity) UnmarshalBinary(data []byte) error {
	return store.Unmarshal(data, x.decode)
}

// ReadFrom replaces x with the filter read from r, allocating in
// proportion to the bytes read.
func (x *Multiplicity) ReadFrom(r io.Reader) (int64, error) {
	return store.ReadFrom(r, x.decode)
}

func (x *Multiplicity) decode(h store.Header, payload []byte) error {
	return x.decodeSource(h, store.CopySource(payload))
}

// decodeSource replaces x by the filter of header h whose words come from
// src (copied, or used in place by OpenMultiplicity and
// ViewMultiplicity); the counters are always copied.
func (x *Multiplicity) decodeSource(h store.Header, src store.Source) error {
	return x.decodeMode(h, src, engine.HugePagesAuto)
}

// decodeMode is decodeSource with the placement of a copy.
func (x *Multiplicity) decodeMode(h store.Header, src store.Source, mode engine.HugePageMode) error {
	payload := src.Bytes()
	if err := h.Expect(store.FamilyMultiplicity, multiplicityVersion, 5); err != nil {
		return err
	}
	m, k, wbar, maxCount, withCounters := h.Params[0], h.Params[1], h.Params[2], h.Params[3], h.Params[4]
	if err := errs.CheckMK(m, uint32(min(k, engine.MaxK+1)), engine.MaxK); err != nil {
		return errs.FormatErrorf("shifting multiplicity: %v", err)
	}
	if wbar != wBar || maxCount == 0 || maxCount > MaxCount || withCounters > 1 {
		return errs.FormatErrorf("shifting multiplicity: w̄ = %d, maximum count %d, counters %d", wbar, maxCount, withCounters)
	}
	g := Multiplicity{m: m, k: uint32(k), maxCount: uint32(maxCount), seed: h.Seed}
	wordBytes := 8 * padWords(m)
	want := wordBytes
	if withCounters == 1 {
		want += g.counterLen()
	}
	if uint64(len(payload)) != want {
		return errs.FormatErrorf("shifting multiplicity: %d payload bytes, want %d", len(payload), want)
	}
	last := g.counterLen() - 1
	if err := checkPaddingBytes(payload[:wordBytes], last); err != nil {
		return err
	}
	st, err := src.Storage(0, wordBytes, padWords(m), mode)
	if err != nil {
		return err
	}
	g.st = st
	if withCounters == 1 {
		g.counts = append([]uint8(nil), payload[wordBytes:]...)
		w := st.Words()
		for pos, c := range g.counts {
			if (c != 0) != (w[pos>>6]>>(pos&63)&1 != 0) {
				_ = st.Close()
				return errs.FormatErrorf("shifting multiplicity: counter %d is %d but its bit disagrees", pos, c)
			}
		}
	}
	*x = g
	return nil
}
