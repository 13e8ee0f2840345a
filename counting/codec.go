package counting

import (
	"io"
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
)

// Serialized form: the engine envelope, family counting, version 1, four
// parameters [cell bits, cells per line, lines, k] and the words in
// little-endian order. A counting Filter has cell bits 4 (128 cells per
// line) or 8 (64); its Bloom twin has cell bits 1 and the cells per line
// of the filter it came from.
const formatVersion = 1

type geometry struct {
	cellBits, cellsPerLine, lines uint64
	k                             uint32
}

func (g geometry) header(seed uint64) engine.Header {
	return engine.Header{Family: engine.FamilyCounting, Version: formatVersion, Seed: seed,
		Params: []uint64{g.cellBits, g.cellsPerLine, g.lines, uint64(g.k)}}
}

// lineWords is the number of words a line of this geometry occupies.
func (g geometry) lineWords() uint64 { return g.cellBits * g.cellsPerLine / 64 }

// decodeGeometry validates the header of a payload of payloadLen bytes;
// bloom says whether a Bloom twin (cell bits 1) is expected.
func decodeGeometry(h engine.Header, payloadLen uint64, bloom bool) (geometry, error) {
	if err := h.Expect(engine.FamilyCounting, formatVersion, 4); err != nil {
		return geometry{}, err
	}
	g := geometry{h.Params[0], h.Params[1], h.Params[2], 0}
	switch {
	case bloom && g.cellBits != 1, !bloom && g.cellBits == 1:
		return g, engine.Errorf("counting: %d-bit cells in a %s", g.cellBits, map[bool]string{true: "Bloom twin", false: "counting filter"}[bloom])
	case g.cellBits == 4 && g.cellsPerLine != 128, g.cellBits == 8 && g.cellsPerLine != 64,
		g.cellBits == 1 && g.cellsPerLine != 128 && g.cellsPerLine != 64,
		g.cellBits != 1 && g.cellBits != 4 && g.cellBits != 8:
		return g, engine.Errorf("counting: %d cells of %d bits per line", g.cellsPerLine, g.cellBits)
	case g.lines == 0 || g.lines > maxLines:
		return g, engine.Errorf("counting: %d lines", g.lines)
	case h.Params[3] == 0 || h.Params[3] > engine.MaxK:
		return g, engine.Errorf("counting: k = %d", h.Params[3])
	case payloadLen/8/g.lineWords() != g.lines || payloadLen%(8*g.lineWords()) != 0:
		return g, engine.Errorf("counting: %d payload bytes for %d lines", payloadLen, g.lines)
	}
	g.k = uint32(h.Params[3])
	return g, nil
}

func (f *Filter) geometry() geometry {
	b := uint64(cellsPerLine(f.wide))
	return geometry{512 / b, b, f.lines, f.k}
}

// snapshot copies the counters, each word read atomically, so a filter
// serialized under concurrent updates is some interleaving of them.
func (f *Filter) snapshot() []byte {
	w := make([]uint64, len(f.words))
	for i := range w {
		w[i] = load(&f.words[i])
	}
	runtime.KeepAlive(f.storage)
	return engine.WordsBytes(w)
}

// MarshalBinary encodes the filter in the engine envelope.
func (f *Filter) MarshalBinary() ([]byte, error) {
	return engine.AppendEnvelope(make([]byte, 0, engine.HeaderSize+8*len(f.words)), f.geometry().header(f.seed), f.snapshot())
}

// WriteTo writes the encoding of the filter to w.
func (f *Filter) WriteTo(w io.Writer) (int64, error) {
	return engine.WriteEnvelope(w, f.geometry().header(f.seed), f.snapshot())
}

// UnmarshalBinary replaces f with the filter encoded in data. Hostile or
// corrupted input is an error; it allocates no more than len(data).
func (f *Filter) UnmarshalBinary(data []byte) error {
	h, payload, err := engine.DecodeEnvelope(data)
	if err != nil {
		return err
	}
	return f.decode(h, payload)
}

// ReadFrom replaces f with the filter read from r, reading exactly one
// envelope.
func (f *Filter) ReadFrom(r io.Reader) (int64, error) {
	h, payload, n, err := engine.ReadEnvelope(r)
	if err != nil {
		return n, err
	}
	return n, f.decode(h, payload)
}

func (f *Filter) decode(h engine.Header, payload []byte) error {
	g, err := decodeGeometry(h, uint64(len(payload)), false)
	if err != nil {
		return err
	}
	s, err := engine.NewStorage(g.lines*asm.CountingLineWords, engine.HugePagesAuto)
	if err != nil {
		return err
	}
	engine.CopyWords(s.Words(), payload)
	*f = Filter{storage: s, words: s.Words(), lines: g.lines, k: g.k,
		seed: h.Seed, key: engine.Uint64Key(h.Seed), lanes: lanesOf(g.cellBits == 8)}
	return nil
}

// Decode returns the counting filter encoded in data.
func Decode(data []byte) (*Filter, error) {
	f := new(Filter)
	if err := f.UnmarshalBinary(data); err != nil {
		return nil, err
	}
	return f, nil
}
