package shifting

import (
	"io"
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/hashing"
	"github.com/filterengine/filterengine/internal/store"
)

// membershipVersion is the ShBF_M format: params (m, k, w̄, m2), payload
// the padded first array then the second array, little-endian words.
const membershipVersion = 1

func (f *Filter) header() store.Header {
	return store.Header{Family: store.FamilyShifting, Version: membershipVersion, Seed: f.p.Seed,
		Params: []uint64{f.p.M, uint64(f.p.K), wBar, f.p.M2}}
}

// MarshalBinary encodes f in the engine envelope.
func (f *Filter) MarshalBinary() ([]byte, error) {
	out := make([]byte, 0, store.HeaderSize+f.SizeBytes())
	out, err := store.AppendEnvelope(out, f.header(), store.WordsBytes(f.bits()))
	runtime.KeepAlive(f.st)
	return out, err
}

// WriteTo writes the encoding of f to w.
func (f *Filter) WriteTo(w io.Writer) (int64, error) {
	n, err := store.WriteEnvelope(w, f.header(), store.WordsBytes(f.bits()))
	runtime.KeepAlive(f.st)
	return n, err
}

// UnmarshalBinary replaces f with the filter encoded in data. Every field
// is validated before the array is allocated.
func (f *Filter) UnmarshalBinary(data []byte) error {
	return store.Unmarshal(data, f.decode)
}

// ReadFrom replaces f with the filter read from r; it reads exactly one
// encoding and allocates in proportion to the bytes actually read.
func (f *Filter) ReadFrom(r io.Reader) (int64, error) {
	return store.ReadFrom(r, f.decode)
}

func (f *Filter) decode(h store.Header, payload []byte) error {
	return f.decodeSource(h, store.CopySource(payload))
}

// decodeSource replaces f by the filter of header h whose words come from
// src: copied, or used in place by Open and View.
func (f *Filter) decodeSource(h store.Header, src store.Source) error {
	return f.decodeMode(h, src, engine.HugePagesAuto)
}

// decodeMode is decodeSource with the placement of a copy.
func (f *Filter) decodeMode(h store.Header, src store.Source, mode engine.HugePageMode) error {
	payload := src.Bytes()
	if err := h.Expect(store.FamilyShifting, membershipVersion, 4); err != nil {
		return err
	}
	m, k, wbar, m2 := h.Params[0], h.Params[1], h.Params[2], h.Params[3]
	if err := errs.CheckMK(m, uint32(min(k, engine.MaxK+1)), engine.MaxK); err != nil || k%2 != 0 {
		return errs.FormatErrorf("shifting: m = %d, k = %d", m, k)
	}
	if wbar != wBar {
		return errs.FormatErrorf("shifting: w̄ = %d, this reader knows %d", wbar, wBar)
	}
	if m2 > engine.MaxBits {
		return errs.FormatErrorf("shifting: second array of %d bits", m2)
	}
	g := Filter{p: asm.ShiftingProbe{M: m, M2: m2, K: uint32(k), Seed: h.Seed, Key: hashing.Uint64Key(h.Seed), Base2: padWords(m)}}
	if uint64(len(payload)) != 8*g.words() {
		return errs.FormatErrorf("shifting: %d payload bytes for m = %d, m2 = %d, want %d", len(payload), m, m2, 8*g.words())
	}
	// Bits no key can set (above m+55 in the first array, at or above m2
	// in the second) must be zero, so that every filter has one encoding.
	if err := checkPaddingBytes(payload[:8*g.p.Base2], m+wBar-2); err != nil {
		return err
	}
	if m2 > 0 {
		if err := checkPaddingBytes(payload[8*g.p.Base2:], m2-1); err != nil {
			return err
		}
	}
	st, err := src.Storage(0, 8*g.words(), g.words(), mode)
	if err != nil {
		return err
	}
	g.setStorage(st)
	*f = g
	return nil
}

// lowBits returns a mask of the low min(n, 64) bits.
func lowBits(n uint64) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<n - 1
}

// checkPaddingBytes is checkPadding of a little-endian payload, before it
// is copied: only the last one or two words can hold padding.
func checkPaddingBytes(payload []byte, last uint64) error {
	var tail [2]uint64
	from := min(last/64, uint64(len(payload)/8))
	n := uint64(len(payload)/8) - from
	if n > 2 {
		return errs.FormatErrorf("shifting: %d words past the highest bit", n)
	}
	store.CopyWords(tail[:n], payload[8*from:])
	for i := range n {
		if tail[i]&^lowBits(last+1-min(last+1, 64*(from+i))) != 0 {
			return errs.FormatErrorf("shifting: padding bits set in word %d", from+i)
		}
	}
	return nil
}
