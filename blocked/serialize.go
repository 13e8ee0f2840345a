package blocked

import (
	"io"
	"runtime"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/store"
)

// formatVersion is the version of the serialized payload: the lines*8
// words, little-endian, after an envelope whose parameters are
// (bits, k).
const formatVersion = 1

func (f *Filter) header() store.Header {
	return store.Header{Family: store.FamilyBlocked, Version: formatVersion, Seed: f.p.Seed, Params: []uint64{f.M(), uint64(f.p.K)}}
}

// errZeroEncode is the error of encoding a Filter without lines: no
// decoder would accept its bytes.
var errZeroEncode = errs.ParamErrorf("zero blocked.Filter has no encoding: use blocked.New")

// MarshalBinary encodes the filter in the engine envelope. A zero Filter
// has no encoding: the answer is an error wrapping engine.ErrParam.
func (f *Filter) MarshalBinary() ([]byte, error) {
	if f.p.Lines == 0 {
		return nil, errZeroEncode
	}
	out := make([]byte, 0, store.HeaderSize+f.SizeBytes())
	out, err := store.AppendEnvelope(out, f.header(), store.WordsBytes(f.p.Words))
	runtime.KeepAlive(f.storage)
	return out, err
}

// WriteTo writes MarshalBinary's bytes to w.
func (f *Filter) WriteTo(w io.Writer) (int64, error) {
	if f.p.Lines == 0 {
		return 0, errZeroEncode
	}
	n, err := store.WriteEnvelope(w, f.header(), store.WordsBytes(f.p.Words))
	runtime.KeepAlive(f.storage)
	return n, err
}

// MarshalText is MarshalBinary in standard base64, so that encoding/json
// and other text formats carry the filter.
func (f *Filter) MarshalText() ([]byte, error) { return store.MarshalText(f.MarshalBinary()) }

// UnmarshalText decodes MarshalText's form into f.
func (f *Filter) UnmarshalText(text []byte) error {
	return store.UnmarshalText(text, f.UnmarshalBinary)
}

// UnmarshalBinary replaces f by the filter encoded in data. Corrupted,
// truncated or foreign bytes give an error wrapping engine.ErrFormat and
// leave f unchanged.
func (f *Filter) UnmarshalBinary(data []byte) error {
	return store.Unmarshal(data, f.decodeCopy)
}

// ReadFrom reads one envelope from r and replaces f by its filter.
func (f *Filter) ReadFrom(r io.Reader) (int64, error) {
	return store.ReadFrom(r, f.decodeCopy)
}

// Decode returns the filter encoded in data; opts choose its storage.
func Decode(data []byte, opts ...engine.Option) (*Filter, error) {
	f := &Filter{}
	if err := store.Unmarshal(data, f.decodeWith(opts)); err != nil {
		return nil, err
	}
	return f, nil
}

// Read reads one filter from r; opts choose its storage.
func Read(r io.Reader, opts ...engine.Option) (*Filter, error) {
	f := &Filter{}
	if _, err := store.ReadFrom(r, f.decodeWith(opts)); err != nil {
		return nil, err
	}
	return f, nil
}

func (f *Filter) decodeWith(opts []engine.Option) func(store.Header, []byte) error {
	return func(h store.Header, payload []byte) error {
		return f.decode(h, store.CopySource(payload), config.Apply(opts).HugePages)
	}
}

// decodeCopy is UnmarshalBinary's and ReadFrom's decoder: the filter keeps
// huge pages if it had them.
func (f *Filter) decodeCopy(h store.Header, payload []byte) error {
	mode := engine.HugePagesAuto
	if f.storage != nil && f.storage.HugePages() {
		mode = engine.HugePagesAlways
	}
	return f.decode(h, store.CopySource(payload), mode)
}

// decode replaces f by the filter of header h whose words come from src
// (copied, or used in place by Open and View); mode places a copy.
func (f *Filter) decode(h store.Header, src store.Source, mode engine.HugePageMode) error {
	payload := src.Bytes()
	if err := h.Expect(store.FamilyBlocked, formatVersion, 2); err != nil {
		return err
	}
	m, k := h.Params[0], h.Params[1]
	if m == 0 || m%LineBits != 0 || m > engine.MaxBits {
		return errs.FormatErrorf("blocked filter of %d bits, not a positive multiple of %d up to %d", m, LineBits, uint64(engine.MaxBits))
	}
	if k == 0 || k > engine.MaxK {
		return errs.FormatErrorf("blocked filter with k = %d, outside [1, %d]", k, engine.MaxK)
	}
	if uint64(len(payload)) != m/8 {
		return errs.FormatErrorf("blocked payload of %d bytes, want %d for %d bits", len(payload), m/8, m)
	}
	s, err := src.Storage(0, m/8, m/64, mode)
	if err != nil {
		return err
	}
	*f = *newFilter(s, m/LineBits, uint32(k), h.Seed)
	return nil
}
