package classic

import (
	"io"
	"runtime"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/store"
)

// formatVersion is the classic payload format: params (m, k), payload the
// ceil(m/64) words little-endian, bits at m and above zero.
const formatVersion = 1

func (f *Filter) header() store.Header {
	return store.Header{Family: store.FamilyClassic, Version: formatVersion, Seed: f.seed, Params: []uint64{f.m, uint64(f.k)}}
}

// MarshalBinary encodes f in the engine envelope.
func (f *Filter) MarshalBinary() ([]byte, error) {
	out := make([]byte, 0, store.HeaderSize+f.SizeBytes())
	out, err := store.AppendEnvelope(out, f.header(), store.WordsBytes(f.words()))
	runtime.KeepAlive(f.st)
	return out, err
}

// WriteTo writes the encoding of f to w.
func (f *Filter) WriteTo(w io.Writer) (int64, error) {
	n, err := store.WriteEnvelope(w, f.header(), store.WordsBytes(f.words()))
	runtime.KeepAlive(f.st)
	return n, err
}

// MarshalText is MarshalBinary in standard base64 (store.MarshalText),
// so that encoding/json and other text formats carry f as one string.
func (f *Filter) MarshalText() ([]byte, error) { return store.MarshalText(f.MarshalBinary()) }

// UnmarshalText replaces f with the filter of MarshalText's form.
func (f *Filter) UnmarshalText(text []byte) error {
	return store.UnmarshalText(text, f.UnmarshalBinary)
}

// UnmarshalBinary replaces f with the filter encoded in data. Every field
// is validated before the bit array is allocated; bad bytes give an error
// wrapping engine.ErrFormat and leave f unchanged.
func (f *Filter) UnmarshalBinary(data []byte) error {
	return store.Unmarshal(data, f.decode)
}

// ReadFrom replaces f with the filter read from r; it reads exactly one
// encoding and allocates in proportion to the bytes actually read.
func (f *Filter) ReadFrom(r io.Reader) (int64, error) {
	return store.ReadFrom(r, f.decode)
}

// Decode returns the filter encoded in data (MarshalBinary's bytes); opts
// choose its storage (engine.WithHugePages).
func Decode(data []byte, opts ...engine.Option) (*Filter, error) {
	return store.Decode(data, opts, (*Filter).decodeOpts)
}

// Read reads one filter from r (WriteTo's bytes); opts choose its
// storage.
func Read(r io.Reader, opts ...engine.Option) (*Filter, error) {
	return store.Read(r, opts, (*Filter).decodeOpts)
}

func (f *Filter) decode(h store.Header, payload []byte) error {
	return f.decodeMode(h, store.CopySource(payload), engine.HugePagesAuto)
}

func (f *Filter) decodeOpts(h store.Header, payload []byte, opts []engine.Option) error {
	cfg := config.Apply(opts)
	for _, v := range cfg.Family() {
		return config.UnknownOption("classic", v)
	}
	return f.decodeMode(h, store.CopySource(payload), cfg.HugePages)
}

// decodeSource replaces f by the filter of header h whose words come from
// src: copied, or used in place by Open and View.
func (f *Filter) decodeSource(h store.Header, src store.Source) error {
	return f.decodeMode(h, src, engine.HugePagesAuto)
}

// decodeMode is decodeSource with the placement of a copy.
func (f *Filter) decodeMode(h store.Header, src store.Source, mode engine.HugePageMode) error {
	payload := src.Bytes()
	if err := h.Expect(store.FamilyClassic, formatVersion, 2); err != nil {
		return err
	}
	m, k := h.Params[0], h.Params[1]
	if err := errs.CheckMK(m, uint32(min(k, engine.MaxK+1)), engine.MaxK); err != nil {
		return errs.FormatErrorf("classic: %v", err)
	}
	if uint64(len(payload)) != 8*wordsFor(m) {
		return errs.FormatErrorf("classic: %d payload bytes for m = %d, want %d", len(payload), m, 8*wordsFor(m))
	}
	st, err := src.Storage(0, 8*wordsFor(m), wordsFor(m), mode)
	if err != nil {
		return err
	}
	if err := checkWords(st.Words(), m); err != nil {
		_ = st.Close()
		return err
	}
	*f = Filter{st: st, m: m, k: uint32(k), seed: h.Seed}
	return nil
}

func checkWords(words []uint64, m uint64) error {
	if uint64(len(words)) != wordsFor(m) {
		return errs.FormatErrorf("classic: %d words for m = %d, want %d", len(words), m, wordsFor(m))
	}
	if tail := m % 64; tail != 0 && words[len(words)-1]>>tail != 0 {
		return errs.FormatErrorf("classic: bits set beyond m = %d", m)
	}
	return nil
}

var _ engine.Filter = (*Filter)(nil)
