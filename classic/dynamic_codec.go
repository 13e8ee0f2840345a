package classic

import (
	"errors"
	"io"
	"runtime"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/store"
)

// dynamicVersion is the Dynamic payload format: envelope family
// store.FamilyDynamic, params (nr, m, k, rows, keys in the last row),
// payload the rows' ceil(m/64) words each, little-endian, row after row,
// bits at m and above zero.
const dynamicVersion = 1

var errZeroDynamic = errors.New("classic: zero Dynamic, use classic.NewDynamic")

func (d *Dynamic) header() store.Header {
	return store.Header{Family: store.FamilyDynamic, Version: dynamicVersion, Seed: d.seed,
		Params: []uint64{d.nr, d.m, uint64(d.k), uint64(len(d.rows)), d.active}}
}

func (d *Dynamic) parts() [][]byte {
	ps := make([][]byte, len(d.words))
	for i, w := range d.words {
		ps[i] = store.WordsBytes(w)
	}
	return ps
}

// MarshalBinary encodes d in the engine envelope.
func (d *Dynamic) MarshalBinary() ([]byte, error) {
	if d.nr == 0 {
		return nil, errZeroDynamic
	}
	out := make([]byte, 0, store.HeaderSize+d.SizeBytes())
	out, err := store.AppendEnvelope(out, d.header(), d.parts()...)
	runtime.KeepAlive(d)
	return out, err
}

// WriteTo writes MarshalBinary's bytes to w.
func (d *Dynamic) WriteTo(w io.Writer) (int64, error) {
	if d.nr == 0 {
		return 0, errZeroDynamic
	}
	n, err := store.WriteEnvelope(w, d.header(), d.parts()...)
	runtime.KeepAlive(d)
	return n, err
}

// MarshalText is MarshalBinary in standard base64 (store.MarshalText).
func (d *Dynamic) MarshalText() ([]byte, error) { return store.MarshalText(d.MarshalBinary()) }

// UnmarshalText replaces d with the filter of MarshalText's form.
func (d *Dynamic) UnmarshalText(text []byte) error {
	return store.UnmarshalText(text, d.UnmarshalBinary)
}

// UnmarshalBinary replaces d by the filter encoded in data. Every field is
// checked against the payload's length before any row is allocated, so
// the rows decoded are the rows the bytes hold; each costs its bits and
// its filter's bookkeeping (about 400 bytes), so a file of the smallest
// rows, one word each, decodes into about 50 times its size. Bad bytes
// give an error wrapping engine.ErrFormat and leave d unchanged.
func (d *Dynamic) UnmarshalBinary(data []byte) error {
	return store.Unmarshal(data, d.decodeWith(nil))
}

// ReadFrom reads one envelope from r and replaces d by its filter.
func (d *Dynamic) ReadFrom(r io.Reader) (int64, error) {
	return store.ReadFrom(r, d.decodeWith(nil))
}

// DecodeDynamic returns the Dynamic filter encoded in data; opts choose the
// rows' storage (engine.WithHugePages).
func DecodeDynamic(data []byte, opts ...engine.Option) (*Dynamic, error) {
	return store.Decode(data, opts, (*Dynamic).decode)
}

// ReadDynamic reads one Dynamic filter from r; opts choose its storage.
func ReadDynamic(r io.Reader, opts ...engine.Option) (*Dynamic, error) {
	return store.Read(r, opts, (*Dynamic).decode)
}

func (d *Dynamic) decodeWith(opts []engine.Option) func(store.Header, []byte) error {
	return func(h store.Header, payload []byte) error { return d.decode(h, payload, opts) }
}

func (d *Dynamic) decode(h store.Header, payload []byte, opts []engine.Option) error {
	if err := h.Expect(store.FamilyDynamic, dynamicVersion, 5); err != nil {
		return err
	}
	nr, m, k, rows, active := h.Params[0], h.Params[1], h.Params[2], h.Params[3], h.Params[4]
	if err := errs.CheckMK(m, uint32(min(k, engine.MaxK+1)), engine.MaxK); err != nil {
		return errs.FormatErrorf("classic: Dynamic: %v", err)
	}
	if nr == 0 || rows == 0 || active > nr {
		return errs.FormatErrorf("classic: Dynamic with nr = %d, %d rows, %d keys in the last row", nr, rows, active)
	}
	rowBytes := 8 * wordsFor(m)
	if rows > uint64(len(payload))/rowBytes || rows*rowBytes != uint64(len(payload)) {
		return errs.FormatErrorf("classic: Dynamic: %d payload bytes for %d rows of %d bytes", len(payload), rows, rowBytes)
	}
	cfg := config.Apply(opts)
	for _, v := range cfg.Family() {
		return config.UnknownOption("classic", v)
	}
	nd := Dynamic{nr: nr, m: m, k: uint32(k), seed: h.Seed, hp: cfg.HugePages, active: active}
	for r := range rows {
		f, err := decodeRow(payload[r*rowBytes:(r+1)*rowBytes], m, uint32(k), h.Seed, cfg.HugePages)
		if err != nil {
			_ = nd.Close()
			return err
		}
		nd.push(f)
	}
	*d = nd
	return nil
}

// decodeRow builds a classic filter of m bits from its little-endian words.
func decodeRow(b []byte, m uint64, k uint32, seed uint64, hp engine.HugePageMode) (*Filter, error) {
	f, err := NewMK(m, k, engine.WithSeed(seed), engine.WithHugePages(hp))
	if err != nil {
		return nil, err
	}
	store.CopyWords(f.st.Words(), b)
	if err := checkWords(f.st.Words(), m); err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

var _ engine.Filter = (*Dynamic)(nil)
