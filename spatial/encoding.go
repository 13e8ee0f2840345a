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

// Serialized form: the engine envelope, family spatial, version 3, with
// parameters (m, k, areas, cell bits, collisions, lines) and the payload
//
//	cells            m cells of 4, 8 or 16 bits packed little-endian (two
//	                 4-bit cells a byte, the lower-numbered in the low
//	                 nibble), zero-padded to 8 bytes
//	members          areas x uint64, area 1 first
//	self-collisions  areas x uint64
//
// The cells come first so they start 64-byte aligned in a file. lines is
// 0 for libSBF's layout and the number of 64-byte lines of the
// line-local layout (WithLineLocal; m = lines * cells per line). Any
// other version is an error.
const formatVersion = 3

const nparams = 6

func cellBytesPadded(m uint64, cellLog uint) uint64 { return (cellBytes(m, cellLog) + 7) &^ 7 }

func (f *Filter) header() store.Header {
	return store.Header{
		Family: store.FamilySpatial, Version: formatVersion, Seed: f.p.Seed,
		Params: []uint64{f.p.M, uint64(f.p.K), uint64(f.areas), uint64(f.CellBits()), f.counts.collisions(), f.p.Lines},
	}
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
// Open and View (the statistics are always copied).
func (f *Filter) decodeStorage(h store.Header, src store.Source, mode engine.HugePageMode) error {
	payload := src.Bytes()
	if err := h.Expect(store.FamilySpatial, formatVersion, nparams); err != nil {
		return err
	}
	m, k, areas, cellBits, collisions, lines := h.Params[0], h.Params[1], h.Params[2], h.Params[3], h.Params[4], h.Params[5]
	if m == 0 || m > MaxCells || k == 0 || k > engine.MaxK || areas == 0 || areas > MaxAreas {
		return errs.FormatErrorf("spatial parameters m = %d, k = %d, areas = %d out of range", m, k, areas)
	}
	cellLog := cellLogFor(int(areas))
	if cellBits != 1<<cellLog {
		return errs.FormatErrorf("spatial cells of %d bits for %d areas, want %d", cellBits, areas, 1<<cellLog)
	}
	if c := asm.SpatialLineCells(cellLog); lines != 0 && (m%c != 0 || m/c != lines) {
		return errs.FormatErrorf("spatial line-local filter of %d lines for %d cells of %d bits", lines, m, 1<<cellLog)
	}
	ncells := cellBytesPadded(m, cellLog)
	if uint64(len(payload)) != ncells+16*areas {
		return errs.FormatErrorf("spatial payload of %d bytes, want %d", len(payload), ncells+16*areas)
	}
	used := cellBytes(m, cellLog)
	cells, stats := payload[:ncells], payload[ncells:]
	for _, b := range cells[used:] {
		if b != 0 {
			return errs.FormatErrorf("spatial cell padding not zero")
		}
	}
	if cellLog == 2 && m%2 == 1 && cells[used-1]>>4 != 0 {
		return errs.FormatErrorf("spatial cell padding not zero")
	}
	if c := largestLabel(cells[:used], cellLog); c > areas {
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
	// The cells' words and their padding: the statistics after them in
	// place, zeros in a copy; a probe only reads padding bits.
	s, err := src.Storage(0, used, cellWords(m, cellLog), mode)
	if err != nil {
		return fmt.Errorf("spatial: filter of %d cells: %w", m, err)
	}
	g := filterOn(s, m, uint32(k), int(areas), cellLog, lines, h.Seed)
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
