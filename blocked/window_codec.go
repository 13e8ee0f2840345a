package blocked

import (
	"io"
	"math"
	"runtime"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/store"
)

// windowVersion is the version of Window's serialized form: an envelope
// of family store.FamilyWindow whose parameters are (n, bits of p,
// generations, lines per generation, k, epoch, keys in the current
// generation), and a payload of the storage's words, little-endian, in
// its order: the generations interleaved line by line, line j of
// generation g at word (j*G + g)*8 (generation epoch%G is current). Any
// other version is an error.
const windowVersion = 2

var errZeroWindow = errs.ParamErrorf("zero blocked.Window has no encoding, use blocked.NewWindow")

func (w *Window) header() store.Header {
	return store.Header{Family: store.FamilyWindow, Version: windowVersion, Seed: w.seed,
		Params: []uint64{w.n, math.Float64bits(w.p), uint64(w.gens), w.lines, uint64(w.K()), w.Epoch(), min(w.Added(), w.n)}}
}

func (w *Window) payload() []byte {
	if w.storage == nil {
		return nil
	}
	return store.WordsBytes(w.storage.Words())
}

// MarshalBinary encodes the window in the engine envelope. A zero Window
// has no encoding.
func (w *Window) MarshalBinary() ([]byte, error) {
	if w.gens == 0 {
		return nil, errZeroWindow
	}
	out := make([]byte, 0, store.HeaderSize+w.SizeBytes())
	out, err := store.AppendEnvelope(out, w.header(), w.payload())
	runtime.KeepAlive(w.storage)
	return out, err
}

// WriteTo writes MarshalBinary's bytes to w.
func (w *Window) WriteTo(wr io.Writer) (int64, error) {
	if w.gens == 0 {
		return 0, errZeroWindow
	}
	n, err := store.WriteEnvelope(wr, w.header(), w.payload())
	runtime.KeepAlive(w.storage)
	return n, err
}

// MarshalText is MarshalBinary in standard base64.
func (w *Window) MarshalText() ([]byte, error) { return store.MarshalText(w.MarshalBinary()) }

// UnmarshalText decodes MarshalText's form into w.
func (w *Window) UnmarshalText(text []byte) error {
	return store.UnmarshalText(text, w.UnmarshalBinary)
}

// UnmarshalBinary replaces w by the window encoded in data. Bad bytes give
// an error wrapping engine.ErrFormat and leave w unchanged.
func (w *Window) UnmarshalBinary(data []byte) error {
	return store.Unmarshal(data, decodeInto(w, (*Window).decode))
}

// ReadFrom reads one envelope from r and replaces w by its window.
func (w *Window) ReadFrom(r io.Reader) (int64, error) {
	return store.ReadFrom(r, decodeInto(w, (*Window).decode))
}

// DecodeWindow returns the Window encoded in data; opts choose its storage.
func DecodeWindow(data []byte, opts ...engine.Option) (*Window, error) {
	return store.Decode(data, opts, (*Window).decode)
}

// ReadWindow reads one Window from r; opts choose its storage.
func ReadWindow(r io.Reader, opts ...engine.Option) (*Window, error) {
	return store.Read(r, opts, (*Window).decode)
}

// maxEpoch is the largest epoch a decoded Window may be at.
const maxEpoch = 1 << 62

// checkWindow validates a Window's parameters as NewWindow and Add keep
// them: n and p valid, lines and k within the caps, lines for n keys
// (New's sizing gives between 0.5 and 512 bits a key: n/1024 to n
// lines), at most n keys in the current generation and an epoch whose
// next rotation does not wrap. It bounds every field String prints.
func checkWindow(n uint64, p float64, gens, lines, k, epoch, count uint64) error {
	if errs.CheckNP(n, p) != nil || gens == 0 || gens > maxGenerations || k == 0 || k > engine.MaxK {
		return errs.FormatErrorf("blocked.Window with n %d, p %v, %d generations, k = %d", n, p, gens, k)
	}
	// epoch+1 must not wrap: generation epoch%G is current and the next
	// rotation clears (epoch+1)%G. No window rotates 2^62 times.
	if epoch > maxEpoch {
		return errs.FormatErrorf("blocked.Window at epoch %d, above %d", epoch, uint64(maxEpoch))
	}
	if lines == 0 || lines > engine.MaxBits/LineBits/gens {
		return errs.FormatErrorf("blocked.Window of %d generations of %d lines", gens, lines)
	}
	if lines > n || n/(2*LineBits) > lines || n/(2*LineBits) == lines && n%(2*LineBits) != 0 {
		return errs.FormatErrorf("blocked.Window of %d lines a generation sized for n = %d keys", lines, n)
	}
	if count > n {
		return errs.FormatErrorf("blocked.Window with %d keys in a generation of %d", count, n)
	}
	return nil
}

func (w *Window) decode(h store.Header, payload []byte, opts []engine.Option) error {
	if err := h.Expect(store.FamilyWindow, windowVersion, 7); err != nil {
		return err
	}
	n, p, gens, lines, k, epoch, count := h.Params[0], math.Float64frombits(h.Params[1]), h.Params[2], h.Params[3], h.Params[4], h.Params[5], h.Params[6]
	if err := checkWindow(n, p, gens, lines, k, epoch, count); err != nil {
		return err
	}
	if lines*64*gens != uint64(len(payload)) {
		return errs.FormatErrorf("blocked.Window of %d generations of %d lines in a %d-byte payload", gens, lines, len(payload))
	}
	s, err := store.NewStorage(lines*8*gens, config.Apply(opts).HugePages)
	if err != nil {
		return err
	}
	store.CopyWords(s.Words(), payload)
	d := newWindow(s, n, p, int(gens), lines, uint32(k), h.Seed)
	d.epoch, d.count, d.started = epoch, count, epoch
	w.storage, w.gens, w.lines, w.k, w.n, w.p, w.seed, w.key, w.epoch, w.count, w.started = d.storage, d.gens, d.lines, d.k, d.n, d.p, d.seed, d.key, d.epoch, d.count, d.started
	return nil
}
