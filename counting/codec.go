package counting

import (
	"io"
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/hashing"
	"github.com/filterengine/filterengine/internal/store"
)

// Serialized form: the engine envelope, family counting, version 2, three
// parameters [counter bits (4 or 8), lines, k] and the words in
// little-endian order: lines lines of 8 words laid out as asm/counting.go
// says (128 4-bit or 64 8-bit counters a line, counter q at the bit q of
// the block of blocked.Narrow's twin). Any other version is an error.
const formatVersion = 2

func (f *Filter) header() store.Header {
	return store.Header{Family: store.FamilyCounting, Version: formatVersion, Seed: f.seed,
		Params: []uint64{uint64(f.CounterBits()), f.lines, uint64(f.k)}}
}

// geometry is a validated header.
type geometry struct {
	wide  bool
	lines uint64
	k     uint32
}

// decodeGeometry validates the header of a payload of payloadLen bytes.
func decodeGeometry(h store.Header, payloadLen uint64) (geometry, error) {
	if err := h.Expect(store.FamilyCounting, formatVersion, 3); err != nil {
		return geometry{}, err
	}
	bits, lines, k := h.Params[0], h.Params[1], h.Params[2]
	switch {
	case bits != 4 && bits != 8:
		return geometry{}, errs.FormatErrorf("counting: %d-bit counters", bits)
	case lines == 0 || lines > maxLines(bits == 8):
		return geometry{}, errs.FormatErrorf("counting: %d lines", lines)
	case k == 0 || k > engine.MaxK:
		return geometry{}, errs.FormatErrorf("counting: k = %d", k)
	}
	const lineBytes = 8 * asm.CountingLineWords
	if payloadLen/lineBytes != lines || payloadLen%lineBytes != 0 {
		return geometry{}, errs.FormatErrorf("counting: %d payload bytes for %d lines", payloadLen, lines)
	}
	return geometry{bits == 8, lines, uint32(k)}, nil
}

// snapshot copies the counters, each word read atomically, so a filter
// serialized under concurrent updates is some interleaving of them.
func (f *Filter) snapshot() []byte {
	w := make([]uint64, len(f.words))
	for i := range w {
		w[i] = load(&f.words[i])
	}
	runtime.KeepAlive(f.storage)
	return store.WordsBytes(w)
}

// MarshalBinary encodes the filter in the engine envelope.
func (f *Filter) MarshalBinary() ([]byte, error) {
	f.mustHaveLines()
	return store.AppendEnvelope(make([]byte, 0, store.HeaderSize+8*len(f.words)), f.header(), f.snapshot())
}

// WriteTo writes the encoding of the filter to w.
func (f *Filter) WriteTo(w io.Writer) (int64, error) {
	f.mustHaveLines()
	return store.WriteEnvelope(w, f.header(), f.snapshot())
}

// UnmarshalBinary replaces f with the filter encoded in data. Hostile or
// corrupted input is an error; it allocates no more than len(data).
func (f *Filter) UnmarshalBinary(data []byte) error {
	return store.Unmarshal(data, f.decode)
}

// ReadFrom replaces f with the filter read from r, reading exactly one
// envelope.
func (f *Filter) ReadFrom(r io.Reader) (int64, error) {
	return store.ReadFrom(r, f.decode)
}

// MarshalText is MarshalBinary in standard base64, so that JSON and
// other text formats carry the filter.
func (f *Filter) MarshalText() ([]byte, error) { return store.MarshalText(f.MarshalBinary()) }

// UnmarshalText replaces f with the filter whose MarshalText is text.
func (f *Filter) UnmarshalText(text []byte) error {
	return store.UnmarshalText(text, f.UnmarshalBinary)
}

// decode is UnmarshalBinary's and ReadFrom's decoder: the filter keeps
// huge pages if it had them.
func (f *Filter) decode(h store.Header, payload []byte) error {
	return f.decodeStorage(h, store.CopySource(payload), f.storage.KeepMode())
}

// decodeOpts is Decode's and Read's decoder: opts choose the storage
// (engine.WithHugePages).
func (f *Filter) decodeOpts(h store.Header, payload []byte, opts []engine.Option) error {
	return f.decodeStorage(h, store.CopySource(payload), config.Apply(opts).HugePages)
}

// decodeSource is Open's and View's decoder: the counters used in place
// (the atomic updates work on a mapping as on memory).
func (f *Filter) decodeSource(h store.Header, src store.Source) error {
	return f.decodeStorage(h, src, engine.HugePagesAuto)
}

// decodeStorage replaces f by the filter of header h whose counters come
// from src, copied into storage of the given mode or used in place.
func (f *Filter) decodeStorage(h store.Header, src store.Source, mode engine.HugePageMode) error {
	payload := src.Bytes()
	g, err := decodeGeometry(h, uint64(len(payload)))
	if err != nil {
		return err
	}
	nwords := g.lines * asm.CountingLineWords
	s, err := src.Storage(0, 8*nwords, nwords, mode)
	if err != nil {
		return err
	}
	*f = Filter{storage: s, words: s.Words(), lines: g.lines, k: g.k,
		seed: h.Seed, key: hashing.Uint64Key(h.Seed), lanes: lanesOf(g.wide)}
	f.setProbe()
	return nil
}

// Decode returns the counting filter encoded in data, in new memory;
// opts choose its storage (engine.WithHugePages). Hostile or corrupted
// input is an error wrapping engine.ErrFormat; it allocates no more than
// len(data).
func Decode(data []byte, opts ...engine.Option) (*Filter, error) {
	return store.Decode(data, opts, (*Filter).decodeOpts)
}

// Read returns the counting filter read from r, exactly one envelope;
// opts choose its storage (engine.WithHugePages).
func Read(r io.Reader, opts ...engine.Option) (*Filter, error) {
	return store.Read(r, opts, (*Filter).decodeOpts)
}
