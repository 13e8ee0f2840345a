package classic

import (
	"errors"
	"io"
	"runtime"

	"github.com/filterengine/filterengine/engine"
)

// retouchedVersion is the Retouched payload format: envelope family
// engine.FamilyRetouched, params (m, k, keys, false positives, the
// ClearRandom generator's state), payload the ceil(m/64) words of the bits
// (bits at m and above zero), then the key hashes, then the false-positive
// hashes, all little-endian uint64. The clearing index is not stored: it
// is rebuilt from the hashes on the first SelectiveClearing.
const retouchedVersion = 1

var errZeroRetouched = errors.New("classic: zero Retouched, use classic.NewRetouched")

func (r *Retouched) header() engine.Header {
	return engine.Header{Family: engine.FamilyRetouched, Version: retouchedVersion, Seed: r.f.seed,
		Params: []uint64{r.f.m, uint64(r.f.k), uint64(len(r.keys)), uint64(len(r.fps)), r.rng}}
}

func (r *Retouched) parts() [][]byte {
	return [][]byte{engine.WordsBytes(r.f.st.Words()), engine.WordsBytes(r.keys), engine.WordsBytes(r.fps)}
}

// MarshalBinary encodes r in the engine envelope.
func (r *Retouched) MarshalBinary() ([]byte, error) {
	if r.f == nil {
		return nil, errZeroRetouched
	}
	out := make([]byte, 0, engine.HeaderSize+r.f.SizeBytes()+8*uint64(len(r.keys)+len(r.fps)))
	out, err := engine.AppendEnvelope(out, r.header(), r.parts()...)
	runtime.KeepAlive(r.f.st)
	return out, err
}

// WriteTo writes MarshalBinary's bytes to w.
func (r *Retouched) WriteTo(w io.Writer) (int64, error) {
	if r.f == nil {
		return 0, errZeroRetouched
	}
	n, err := engine.WriteEnvelope(w, r.header(), r.parts()...)
	runtime.KeepAlive(r.f.st)
	return n, err
}

// MarshalText is MarshalBinary in standard base64 (engine.MarshalText).
func (r *Retouched) MarshalText() ([]byte, error) { return engine.MarshalText(r.MarshalBinary()) }

// UnmarshalText replaces r with the filter of MarshalText's form.
func (r *Retouched) UnmarshalText(text []byte) error {
	return engine.UnmarshalText(text, r.UnmarshalBinary)
}

// UnmarshalBinary replaces r by the filter encoded in data; bad bytes give
// an error wrapping engine.ErrFormat and leave r unchanged.
func (r *Retouched) UnmarshalBinary(data []byte) error {
	return engine.Unmarshal(data, r.decodeWith(nil))
}

// ReadFrom reads one envelope from r and replaces r by its filter.
func (r *Retouched) ReadFrom(rd io.Reader) (int64, error) {
	return engine.ReadFrom(rd, r.decodeWith(nil))
}

// DecodeRetouched returns the Retouched filter encoded in data; opts
// choose the bits' storage.
func DecodeRetouched(data []byte, opts ...engine.Option) (*Retouched, error) {
	return engine.Decode(data, opts, (*Retouched).decode)
}

// ReadRetouched reads one Retouched filter from rd; opts choose its
// storage.
func ReadRetouched(rd io.Reader, opts ...engine.Option) (*Retouched, error) {
	return engine.Read(rd, opts, (*Retouched).decode)
}

func (r *Retouched) decodeWith(opts []engine.Option) func(engine.Header, []byte) error {
	return func(h engine.Header, payload []byte) error { return r.decode(h, payload, opts) }
}

func (r *Retouched) decode(h engine.Header, payload []byte, opts []engine.Option) error {
	if err := h.Expect(engine.FamilyRetouched, retouchedVersion, 5); err != nil {
		return err
	}
	m, k, nk, nf, rng := h.Params[0], h.Params[1], h.Params[2], h.Params[3], h.Params[4]
	if err := engine.CheckMK(m, uint32(min(k, MaxK+1)), MaxK); err != nil {
		return engine.FormatErrorf("classic: Retouched: %v", err)
	}
	words, avail := wordsFor(m), uint64(len(payload))/8
	if words > avail || nk > avail || nf > avail || 8*(words+nk+nf) != uint64(len(payload)) {
		return engine.FormatErrorf("classic: Retouched: %d payload bytes for m = %d, %d keys and %d false positives",
			len(payload), m, nk, nf)
	}
	cfg := engine.Apply(opts)
	for _, v := range cfg.Family() {
		return engine.UnknownOption("classic", v)
	}
	f, err := decodeRow(payload[:8*words], m, uint32(k), h.Seed, cfg.HugePages)
	if err != nil {
		return err
	}
	nr := Retouched{f: f, keys: make([]uint64, nk), fps: make([]uint64, nf), rng: rng, dirty: true}
	engine.CopyWords(nr.keys, payload[8*words:8*(words+nk)])
	engine.CopyWords(nr.fps, payload[8*(words+nk):])
	*r = nr
	return nil
}

var _ engine.Filter = (*Retouched)(nil)
