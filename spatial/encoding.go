package spatial

import (
	"encoding/binary"
	"fmt"
	"io"
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/store"
)

// Serialized form: the engine envelope, family spatial, version 2, with
// parameters (m, k, areas, cell bits, collisions) and the payload
//
//	cells            m cells of 4, 8 or 16 bits packed little-endian (two
//	                 4-bit cells a byte, the lower-numbered in the low
//	                 nibble), zero-padded to 8 bytes
//	members          areas x uint64, area 1 first
//	self-collisions  areas x uint64
//
// The cells come first so they start 64-byte aligned in a file. Version
// 3 is the line-local layout (WithLineLocal): the same payload with a
// sixth parameter, the number of 64-byte lines (m = lines * cells per
// line). libSBF's layout is still written as version 2, so readers that
// predate version 3 read it. Version 1, written before 4-bit cells, is
// still read: its parameter 3 is the cell size in bytes (1 up to 255
// areas, else 2) and its cells are whole bytes, so filters of up to 15
// areas are repacked into nibbles.
const (
	formatVersion     = 2
	formatVersionLine = 3
)

const nparams = 5

func cellBytesPadded(m uint64, cellLog uint) uint64 { return (cellBytes(m, cellLog) + 7) &^ 7 }

func (f *Filter) header() store.Header {
	h := store.Header{
		Family: store.FamilySpatial, Version: formatVersion, Seed: f.p.Seed,
		Params: []uint64{f.p.M, uint64(f.p.K), uint64(f.areas), uint64(f.CellBits()), f.counts.collisions()},
	}
	if f.p.Lines != 0 {
		h.Version = formatVersionLine
		h.Params = append(h.Params, f.p.Lines)
	}
	return h
}

// payloadParts returns the payload; the cells alias the filter.
func (f *Filter) payloadParts() [][]byte {
	n := cellBytesPadded(f.p.M, f.p.CellLog)
	stats := make([]byte, 16*f.areas)
	for i := range f.areas {
		members, self, _ := f.counts.area(i + 1)
		binary.LittleEndian.PutUint64(stats[8*i:], members)
		binary.LittleEndian.PutUint64(stats[8*(f.areas+i):], self)
	}
	return [][]byte{f.cells[:n], stats}
}

// MarshalBinary encodes the filter, its statistics included.
func (f *Filter) MarshalBinary() ([]byte, error) {
	f.mustHaveCells()
	parts := f.payloadParts()
	out := make([]byte, 0, store.HeaderSize+len(parts[0])+len(parts[1]))
	out, err := store.AppendEnvelope(out, f.header(), parts...)
	runtime.KeepAlive(f.storage)
	return out, err
}

// WriteTo writes MarshalBinary's bytes to w.
func (f *Filter) WriteTo(w io.Writer) (int64, error) {
	f.mustHaveCells()
	n, err := store.WriteEnvelope(w, f.header(), f.payloadParts()...)
	runtime.KeepAlive(f.storage)
	return n, err
}

// UnmarshalBinary replaces f with the encoded filter. Any corrupted byte,
// truncation or inconsistent field is an error wrapping engine.ErrFormat;
// memory allocated is at most about twice len(data) (an area's counters
// take 32 bytes in memory against its 16 in the payload).
func (f *Filter) UnmarshalBinary(data []byte) error {
	return store.Unmarshal(data, f.decode)
}

// ReadFrom reads one encoded filter from r into f.
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

// Decode returns the filter encoded in data, in new memory; opts choose
// its storage (engine.WithHugePages). Any corrupted byte, truncation or
// inconsistent field is an error wrapping engine.ErrFormat.
func Decode(data []byte, opts ...engine.Option) (*Filter, error) {
	return store.Decode(data, opts, (*Filter).decodeOpts)
}

// Read returns the filter read from r, exactly one envelope; opts choose
// its storage (engine.WithHugePages).
func Read(r io.Reader, opts ...engine.Option) (*Filter, error) {
	return store.Read(r, opts, (*Filter).decodeOpts)
}

// decode is UnmarshalBinary's and ReadFrom's decoder: the filter keeps
// huge pages if it had them.
func (f *Filter) decode(h store.Header, payload []byte) error {
	return f.decodeStorage(h, store.CopySource(payload), f.storage.KeepMode())
}

// decodeOpts is Decode's and Read's decoder.
func (f *Filter) decodeOpts(h store.Header, payload []byte, opts []engine.Option) error {
	return f.decodeStorage(h, store.CopySource(payload), config.Apply(opts).HugePages)
}

// decodeSource is Open's and View's decoder: the cells used in place.
func (f *Filter) decodeSource(h store.Header, src store.Source) error {
	return f.decodeStorage(h, src, engine.HugePagesAuto)
}

// decodeStorage replaces f by the filter of header h whose cells come
// from src: copied into storage of the given mode, or used in place by
// Open and View (the statistics and version 1's byte cells are always
// copied).
func (f *Filter) decodeStorage(h store.Header, src store.Source, mode engine.HugePageMode) error {
	payload := src.Bytes()
	version, np := uint16(formatVersion), nparams
	if h.Family == store.FamilySpatial && (h.Version == 1 || h.Version == formatVersionLine) {
		version = h.Version
	}
	if version == formatVersionLine {
		np++
	}
	if err := h.Expect(store.FamilySpatial, version, np); err != nil {
		return err
	}
	m, k, areas, cellSize, collisions := h.Params[0], h.Params[1], h.Params[2], h.Params[3], h.Params[4]
	if m == 0 || m > MaxCells || k == 0 || k > engine.MaxK || areas == 0 || areas > MaxAreas {
		return errs.FormatErrorf("spatial parameters m = %d, k = %d, areas = %d out of range", m, k, areas)
	}
	// srcLog is log2 of the stored cell bits, cellLog of the filter's.
	cellLog := cellLogFor(int(areas))
	var lines uint64
	if version == formatVersionLine {
		lines = h.Params[5]
		if c := asm.SpatialLineCells(cellLog); lines == 0 || m%c != 0 || m/c != lines {
			return errs.FormatErrorf("spatial line-local filter of %d lines for %d cells of %d bits", lines, m, 1<<cellLog)
		}
	}
	srcLog := cellLog
	if version == 1 {
		srcLog = max(cellLog, 3)
		if cellSize != 1<<(srcLog-3) {
			return errs.FormatErrorf("spatial version 1 cells of %d bytes for %d areas, want %d", cellSize, areas, 1<<(srcLog-3))
		}
	} else if cellSize != 1<<cellLog {
		return errs.FormatErrorf("spatial cells of %d bits for %d areas, want %d", cellSize, areas, 1<<cellLog)
	}
	ncells := cellBytesPadded(m, srcLog)
	if uint64(len(payload)) != ncells+16*areas {
		return errs.FormatErrorf("spatial payload of %d bytes, want %d", len(payload), ncells+16*areas)
	}
	used := cellBytes(m, srcLog)
	cells, stats := payload[:ncells], payload[ncells:]
	for _, b := range cells[used:] {
		if b != 0 {
			return errs.FormatErrorf("spatial cell padding not zero")
		}
	}
	if srcLog == 2 && m%2 == 1 && cells[used-1]>>4 != 0 {
		return errs.FormatErrorf("spatial cell padding not zero")
	}
	if c := largestLabel(cells[:used], srcLog); c > areas {
		return errs.FormatErrorf("spatial cell label %d above %d areas", c, areas)
	}
	var members uint64
	for i := range areas {
		n := binary.LittleEndian.Uint64(stats[8*i:])
		self := binary.LittleEndian.Uint64(stats[8*(areas+i):])
		if n > 1<<56 || self > k*n {
			return errs.FormatErrorf("spatial area %d statistics inconsistent", i+1)
		}
		if members += n; members > 1<<56 {
			return errs.FormatErrorf("spatial member count overflows")
		}
	}
	if collisions > k*members {
		return errs.FormatErrorf("spatial collisions %d above %d probes", collisions, k*members)
	}
	var g *Filter
	if srcLog == cellLog {
		// The cells' words and their padding: the statistics after them
		// in place, zeros in a copy; a probe only reads padding bits.
		s, err := src.Storage(0, used, cellWords(m, cellLog), mode)
		if err != nil {
			return fmt.Errorf("spatial: filter of %d cells: %w", m, err)
		}
		g = filterOn(s, m, uint32(k), int(areas), cellLog, lines, h.Seed)
	} else {
		var err error
		if g, err = newFilter(m, uint32(k), int(areas), cellLog, lines, h.Seed, mode); err != nil {
			return fmt.Errorf("spatial: filter of %d cells: %w", m, err)
		}
		for i, c := range cells[:used] { // version 1 bytes holding labels <= 15
			g.cells[i/2] |= c << (4 * (i & 1))
		}
	}
	for i := range areas {
		g.counts[i+1].members.Store(binary.LittleEndian.Uint64(stats[8*i:]))
		g.counts[i+1].self.Store(binary.LittleEndian.Uint64(stats[8*(areas+i):]))
	}
	g.counts[0].collide.Store(collisions) // the file keeps only the total
	f.adopt(g)
	return nil
}

// adopt moves g's state into f.
func (f *Filter) adopt(g *Filter) {
	f.p, f.areas, f.mask = g.p, g.areas, g.mask
	f.storage, f.cells = g.storage, g.cells
	f.counts = g.counts
}

// largestLabel returns the largest cell value in packed little-endian
// cells of 1 << cellLog bits.
func largestLabel(cells []byte, cellLog uint) uint64 {
	var top byte
	switch cellLog {
	case 2:
		for _, b := range cells {
			top = max(top, b&0xf, b>>4)
		}
	case 3:
		for _, b := range cells {
			top = max(top, b)
		}
	default:
		var wide uint16
		for i := 0; i+1 < len(cells); i += 2 {
			wide = max(wide, binary.LittleEndian.Uint16(cells[i:]))
		}
		return uint64(wide)
	}
	return uint64(top)
}
