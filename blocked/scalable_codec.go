package blocked

import (
	"encoding/binary"
	"io"
	"math"
	"math/bits"
	"runtime"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/hashing"
	"github.com/filterengine/filterengine/internal/store"
)

// scalableVersion is the version of Scalable's serialized form: an
// envelope of family store.FamilyScalable whose parameters are (hint,
// bits of p, growth, bits of r, stages, count), and a payload of one
// 32-byte record (lines, k, capacity, count) per stage followed by each
// stage's lines*8 words, all little-endian. Stage geometry is stored, not
// recomputed, so a reader never depends on floating-point sizing.
const scalableVersion = 1

var errZeroScalable = errs.ParamErrorf("zero blocked.Scalable has no encoding, use blocked.NewScalable")

func (s *Scalable) header() store.Header {
	return store.Header{Family: store.FamilyScalable, Version: scalableVersion, Seed: s.seed,
		Params: []uint64{s.hint, math.Float64bits(s.p), s.growth, math.Float64bits(s.r), uint64(len(s.stages)), s.count}}
}

// parts returns the payload pieces: the stage table, then every stage's
// words.
func (s *Scalable) parts() [][]byte {
	table := make([]byte, 0, 32*len(s.stages))
	parts := make([][]byte, 1, 1+len(s.stages))
	for i, f := range s.stages {
		table = binary.LittleEndian.AppendUint64(table, f.p.Lines)
		table = binary.LittleEndian.AppendUint64(table, uint64(f.p.K))
		table = binary.LittleEndian.AppendUint64(table, s.caps[i])
		table = binary.LittleEndian.AppendUint64(table, s.counts[i])
		parts = append(parts, store.WordsBytes(f.p.Words))
	}
	parts[0] = table
	return parts
}

// MarshalBinary encodes the filter in the engine envelope.
func (s *Scalable) MarshalBinary() ([]byte, error) {
	if len(s.stages) == 0 {
		return nil, errZeroScalable
	}
	out := make([]byte, 0, store.HeaderSize+32*uint64(len(s.stages))+s.SizeBytes())
	out, err := store.AppendEnvelope(out, s.header(), s.parts()...)
	runtime.KeepAlive(s)
	return out, err
}

// WriteTo writes MarshalBinary's bytes to w.
func (s *Scalable) WriteTo(w io.Writer) (int64, error) {
	if len(s.stages) == 0 {
		return 0, errZeroScalable
	}
	n, err := store.WriteEnvelope(w, s.header(), s.parts()...)
	runtime.KeepAlive(s)
	return n, err
}

// MarshalText is MarshalBinary in standard base64.
func (s *Scalable) MarshalText() ([]byte, error) { return store.MarshalText(s.MarshalBinary()) }

// UnmarshalText decodes MarshalText's form into s.
func (s *Scalable) UnmarshalText(text []byte) error {
	return store.UnmarshalText(text, s.UnmarshalBinary)
}

// UnmarshalBinary replaces s by the filter encoded in data. Bad bytes give
// an error wrapping engine.ErrFormat and leave s unchanged.
func (s *Scalable) UnmarshalBinary(data []byte) error {
	return store.Unmarshal(data, decodeInto(s, (*Scalable).decode))
}

// ReadFrom reads one envelope from r and replaces s by its filter.
func (s *Scalable) ReadFrom(r io.Reader) (int64, error) {
	return store.ReadFrom(r, decodeInto(s, (*Scalable).decode))
}

// DecodeScalable returns the Scalable encoded in data; opts choose its
// storage (engine.WithHugePages).
func DecodeScalable(data []byte, opts ...engine.Option) (*Scalable, error) {
	return store.Decode(data, opts, (*Scalable).decode)
}

// ReadScalable reads one Scalable from r; opts choose its storage.
func ReadScalable(r io.Reader, opts ...engine.Option) (*Scalable, error) {
	return store.Read(r, opts, (*Scalable).decode)
}

func (s *Scalable) decode(h store.Header, payload []byte, opts []engine.Option) error {
	if err := h.Expect(store.FamilyScalable, scalableVersion, 6); err != nil {
		return err
	}
	hint, p, grow, r := h.Params[0], math.Float64frombits(h.Params[1]), h.Params[2], math.Float64frombits(h.Params[3])
	nstages, count := h.Params[4], h.Params[5]
	if errs.CheckNP(hint, p) != nil || checkGrowth(grow, r) != nil {
		return errs.FormatErrorf("blocked.Scalable with hint %d, p %v, growth %d, tightening %v", hint, p, grow, r)
	}
	if nstages == 0 || nstages > maxStages || uint64(len(payload)) < 32*nstages {
		return errs.FormatErrorf("blocked.Scalable with %d stages in a %d-byte payload", nstages, len(payload))
	}
	table, rest := payload[:32*nstages], payload[32*nstages:]
	var sum, carry uint64
	want := hint // stage i's capacity, hint*grow^i
	for i := range nstages {
		lines, k, capacity, c := binary.LittleEndian.Uint64(table[32*i:]), binary.LittleEndian.Uint64(table[32*i+8:]),
			binary.LittleEndian.Uint64(table[32*i+16:]), binary.LittleEndian.Uint64(table[32*i+24:])
		if lines == 0 || lines > uint64(len(rest))/64 || k == 0 || k > engine.MaxK || capacity != want {
			return errs.FormatErrorf("blocked.Scalable stage %d: %d lines, k = %d, capacity %d (want %d) in %d bytes left", i, lines, k, capacity, want, len(rest))
		}
		// A stage opens when the one before holds its capacity: only the
		// newest may hold fewer, or more once no further stage can open.
		if c != capacity && i+1 < nstages {
			return errs.FormatErrorf("blocked.Scalable stage %d holds %d keys, not its capacity %d", i, c, capacity)
		}
		rest = rest[lines*64:]
		sum, carry = bits.Add64(sum, c, carry)
		hi, lo := bits.Mul64(want, grow)
		if hi != 0 && i+1 < nstages {
			return errs.FormatErrorf("blocked.Scalable stage %d would hold more than 2^64 keys", i+1)
		}
		want = lo
	}
	if len(rest) != 0 || carry != 0 || sum != count {
		return errs.FormatErrorf("blocked.Scalable: %d bytes after the stages, stage counts sum to %d, count %d", len(rest), sum, count)
	}
	c := config.Apply(opts)
	d := Scalable{hint: hint, p: p, growth: grow, r: r, seed: h.Seed, key: hashing.Uint64Key(h.Seed), count: count,
		opts: []engine.Option{engine.WithSeed(h.Seed), engine.WithHugePages(c.HugePages)}}
	words := payload[32*nstages:]
	for i := range nstages {
		lines, k := binary.LittleEndian.Uint64(table[32*i:]), uint32(binary.LittleEndian.Uint64(table[32*i+8:]))
		st, err := store.NewStorage(lines*8, c.HugePages)
		if err != nil {
			return err
		}
		store.CopyWords(st.Words(), words[:lines*64])
		words = words[lines*64:]
		d.stages = append(d.stages, newFilter(st, lines, k, h.Seed))
		d.caps = append(d.caps, binary.LittleEndian.Uint64(table[32*i+16:]))
		d.counts = append(d.counts, binary.LittleEndian.Uint64(table[32*i+24:]))
	}
	d.reorder()
	*s = d
	return nil
}
