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

// retouchedVersion is the Retouched payload format: envelope family
// store.FamilyRetouched, params (m, k, keys, false positives, the
// ClearRandom generator's state), payload the ceil(m/64) words of the bits
// (bits at m and above zero), then the key hashes, then the false-positive
// hashes, all little-endian uint64. The clearing index is not stored: it
// is rebuilt from the hashes on the first SelectiveClearing.
const retouchedVersion = 1

var errZeroRetouched = errors.New("classic: zero Retouched, use classic.NewRetouched")

func (r *Retouched) header() store.Header {
	return store.Header{Family: store.FamilyRetouched, Version: retouchedVersion, Seed: r.f.seed,
		Params: []uint64{r.f.m, uint64(r.f.k), uint64(len(r.keys)), uint64(len(r.fps)), r.rng}}
}

func (r *Retouched) parts() [][]byte {
	return [][]byte{store.WordsBytes(r.f.st.Words()), store.WordsBytes(r.keys), store.WordsBytes(r.fps)}
}

// MarshalBinary encodes r in the engine envelope.
func (r *Retouched) MarshalBinary() ([]byte, error) {
	if r.f == nil {
		return nil, errZeroRetouched
	}
	out := make([]byte, 0, store.HeaderSize+r.f.SizeBytes()+8*uint64(len(r.keys)+len(r.fps)))
	out, err := store.AppendEnvelope(out, r.header(), r.parts()...)
	runtime.KeepAlive(r.f.st)
	return out, err
}

// WriteTo writes MarshalBinary's bytes to w.
func (r *Retouched) WriteTo(w io.Writer) (int64, error) {
	if r.f == nil {
		return 0, errZeroRetouched
	}
	n, err := store.WriteEnvelope(w, r.header(), r.parts()...)
	runtime.KeepAlive(r.f.st)
	return n, err
}

// MarshalText is MarshalBinary in standard base64 (store.MarshalText).
func (r *Retouched) MarshalText() ([]byte, error) { return store.MarshalText(r.MarshalBinary()) }

// UnmarshalText replaces r with the filter of MarshalText's form.
func (r *Retouched) UnmarshalText(text []byte) error {
	return store.UnmarshalText(text, r.UnmarshalBinary)
}

// UnmarshalBinary replaces r by the filter encoded in data; bad bytes give
// an error wrapping engine.ErrFormat and leave r unchanged.
func (r *Retouched) UnmarshalBinary(data []byte) error {
	return store.Unmarshal(data, r.decodeWith(nil))
}

// ReadFrom reads one envelope from r and replaces r by its filter.
func (r *Retouched) ReadFrom(rd io.Reader) (int64, error) {
	return store.ReadFrom(rd, r.decodeWith(nil))
}

// DecodeRetouched returns the Retouched filter encoded in data; opts
// choose the bits' storage.
func DecodeRetouched(data []byte, opts ...engine.Option) (*Retouched, error) {
	return store.Decode(data, opts, (*Retouched).decode)
}

// ReadRetouched reads one Retouched filter from rd; opts choose its
// storage.
func ReadRetouched(rd io.Reader, opts ...engine.Option) (*Retouched, error) {
	return store.Read(rd, opts, (*Retouched).decode)
}

func (r *Retouched) decodeWith(opts []engine.Option) func(store.Header, []byte) error {
	return func(h store.Header, payload []byte) error { return r.decode(h, payload, opts) }
}

func (r *Retouched) decode(h store.Header, payload []byte, opts []engine.Option) error {
	if err := h.Expect(store.FamilyRetouched, retouchedVersion, 5); err != nil {
		return err
	}
	m, k, nk, nf, rng := h.Params[0], h.Params[1], h.Params[2], h.Params[3], h.Params[4]
	if err := errs.CheckMK(m, uint32(min(k, engine.MaxK+1)), engine.MaxK); err != nil {
		return errs.FormatErrorf("classic: Retouched: %v", err)
	}
	words, avail := wordsFor(m), uint64(len(payload))/8
	if words > avail || nk > avail || nf > avail || 8*(words+nk+nf) != uint64(len(payload)) {
		return errs.FormatErrorf("classic: Retouched: %d payload bytes for m = %d, %d keys and %d false positives",
			len(payload), m, nk, nf)
	}
	cfg := config.Apply(opts)
	for _, v := range cfg.Family() {
		return config.UnknownOption("classic", v)
	}
	f, err := decodeRow(payload[:8*words], m, uint32(k), h.Seed, cfg.HugePages)
	if err != nil {
		return err
	}
	nr := Retouched{f: f, keys: make([]uint64, nk), fps: make([]uint64, nf), rng: rng, dirty: true}
	store.CopyWords(nr.keys, payload[8*words:8*(words+nk)])
	store.CopyWords(nr.fps, payload[8*(words+nk):])
	*r = nr
	return nil
}

var _ engine.Filter = (*Retouched)(nil)
