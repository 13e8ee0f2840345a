package counting

import (
	"io"
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
)

// Bloom is the membership-only twin of a counting Filter: one bit per
// counter, set when the counter is nonzero, in the same line-local layout
// (a key's cells in one 128-bit block for 4-bit filters, one 64-bit block
// for 8-bit), so it answers every key exactly as the filter it came from
// did, in a quarter (or an eighth) of the memory. Ship it where only Test
// is needed. Neither classic (probes over the whole array) nor blocked
// (512-bit lines) shares the counting filter's 128-cell lines, so no
// filter of those families can be an exact twin.
//
// Add is not safe for concurrent use with other methods; Test is.
type Bloom struct {
	storage   *engine.Storage
	words     []uint64
	lines     uint64
	k         uint32
	seed      uint64
	cellMask  uint64 // 127 or 63
	lineWords uint64 // 2 or 1
}

// ToBloom returns the filter's Bloom twin. Under concurrent updates it
// reflects some interleaving of them, each word read atomically.
func (f *Filter) ToBloom() (*Bloom, error) {
	b := &Bloom{lines: f.lines, k: f.k, seed: f.seed, cellMask: f.cellMask, lineWords: f.cellMask/64 + 1}
	s, err := engine.NewStorage(f.lines*b.lineWords, f.hugeMode())
	if err != nil {
		return nil, err
	}
	b.storage, b.words = s, s.Words()
	for l := range f.lines {
		src := (*line)(f.words[l*asm.CountingLineWords:])
		var lo, hi uint64
		for w := range src {
			nz := f.nonzero(load(&src[w]))
			for byteIdx := range uint64(8) {
				shift := byteIdx * 8
				lo |= (nz >> shift & 1) << (w*8 + int(byteIdx))
				hi |= (nz >> (shift + 4) & 1) << (w*8 + int(byteIdx))
			}
		}
		b.words[l*b.lineWords] = lo
		if b.lineWords == 2 {
			b.words[l*2+1] = hi
		}
	}
	runtime.KeepAlive(f.storage)
	return b, nil
}

func (f *Filter) hugeMode() engine.HugePageMode {
	if f.storage.HugePages() {
		return engine.HugePagesAlways
	}
	return engine.HugePagesNever
}

// K is the number of cells per key.
func (b *Bloom) K() uint32 { return b.k }

// Lines is the number of blocks.
func (b *Bloom) Lines() uint64 { return b.lines }

// Bits is the number of bits (cells).
func (b *Bloom) Bits() uint64 { return b.lines * (b.cellMask + 1) }

// block returns the first word of h's block.
func (b *Bloom) block(h uint64) uint64 { return engine.Reduce(h, b.lines) * b.lineWords }

// AddHash sets the bits of a hash.
func (b *Bloom) AddHash(h uint64) {
	blk := b.words[b.block(h):][:b.lineWords]
	x, round := asm.CountingProbes(h, 0), uint64(0)
	for j := range b.k {
		if j%asm.CountingChunksPerWord == 0 && j > 0 {
			round++
			x = asm.CountingProbes(h, round)
		}
		c := x & b.cellMask
		x >>= asm.CountingChunkBits
		blk[c>>6] |= 1 << (c & 63)
	}
	runtime.KeepAlive(b.storage)
}

// TestHash reports whether every bit of a hash is set.
func (b *Bloom) TestHash(h uint64) bool {
	blk := b.words[b.block(h):][:b.lineWords]
	x, round := asm.CountingProbes(h, 0), uint64(0)
	for j := range b.k {
		if j%asm.CountingChunksPerWord == 0 && j > 0 {
			round++
			x = asm.CountingProbes(h, round)
		}
		c := x & b.cellMask
		x >>= asm.CountingChunkBits
		if blk[c>>6]>>(c&63)&1 == 0 {
			runtime.KeepAlive(b.storage)
			return false
		}
	}
	runtime.KeepAlive(b.storage)
	return true
}

// Add inserts key.
func (b *Bloom) Add(key []byte) { b.AddHash(engine.HashSeed(key, b.seed)) }

// Test reports whether key may be in the filter.
func (b *Bloom) Test(key []byte) bool { return b.TestHash(engine.HashSeed(key, b.seed)) }

// AddHashes inserts every hash.
func (b *Bloom) AddHashes(hs []uint64) {
	for _, h := range hs {
		b.AddHash(h)
	}
}

// TestHashes sets out[i] to TestHash(hs[i]) and returns how many are true.
func (b *Bloom) TestHashes(hs []uint64, out []bool) int {
	out = out[:len(hs)]
	n := 0
	for i, h := range hs {
		out[i] = b.TestHash(h)
		if out[i] {
			n++
		}
	}
	return n
}

// AddKeys inserts every key.
func (b *Bloom) AddKeys(keys [][]byte) {
	for _, k := range keys {
		b.Add(k)
	}
}

// TestKeys sets out[i] to Test(keys[i]) and returns how many are true.
func (b *Bloom) TestKeys(keys [][]byte, out []bool) int {
	out = out[:len(keys)]
	n := 0
	for i, k := range keys {
		out[i] = b.Test(k)
		if out[i] {
			n++
		}
	}
	return n
}

// AddUint64s inserts the 8 little-endian bytes of every key.
func (b *Bloom) AddUint64s(ks []uint64) {
	var hs [chunk]uint64
	for len(ks) > 0 {
		m := min(len(ks), chunk)
		asm.HashUint64s(hs[:m], ks[:m], b.seed)
		b.AddHashes(hs[:m])
		ks = ks[m:]
	}
}

// TestUint64s sets out[i] to Test of the 8 little-endian bytes of ks[i].
func (b *Bloom) TestUint64s(ks []uint64, out []bool) int {
	out = out[:len(ks)]
	var hs [chunk]uint64
	n := 0
	for len(ks) > 0 {
		m := min(len(ks), chunk)
		asm.HashUint64s(hs[:m], ks[:m], b.seed)
		n += b.TestHashes(hs[:m], out[:m])
		ks, out = ks[m:], out[m:]
	}
	return n
}

func (b *Bloom) geometry() geometry {
	return geometry{1, b.cellMask + 1, b.lines, b.k}
}

// MarshalBinary encodes the twin in the engine envelope (family counting,
// cell bits 1).
func (b *Bloom) MarshalBinary() ([]byte, error) {
	out, err := engine.AppendEnvelope(make([]byte, 0, engine.HeaderSize+8*len(b.words)), b.geometry().header(b.seed), engine.WordsBytes(b.words))
	runtime.KeepAlive(b.storage)
	return out, err
}

// WriteTo writes the encoding of the twin to w.
func (b *Bloom) WriteTo(w io.Writer) (int64, error) {
	n, err := engine.WriteEnvelope(w, b.geometry().header(b.seed), engine.WordsBytes(b.words))
	runtime.KeepAlive(b.storage)
	return n, err
}

// UnmarshalBinary replaces b with the twin encoded in data.
func (b *Bloom) UnmarshalBinary(data []byte) error {
	h, payload, err := engine.DecodeEnvelope(data)
	if err != nil {
		return err
	}
	return b.decode(h, payload)
}

// ReadFrom replaces b with the twin read from r.
func (b *Bloom) ReadFrom(r io.Reader) (int64, error) {
	h, payload, n, err := engine.ReadEnvelope(r)
	if err != nil {
		return n, err
	}
	return n, b.decode(h, payload)
}

func (b *Bloom) decode(h engine.Header, payload []byte) error {
	g, err := decodeGeometry(h, uint64(len(payload)), true)
	if err != nil {
		return err
	}
	s, err := engine.NewStorage(g.lines*g.lineWords(), engine.HugePagesAuto)
	if err != nil {
		return err
	}
	engine.CopyWords(s.Words(), payload)
	*b = Bloom{storage: s, words: s.Words(), lines: g.lines, k: g.k, seed: h.Seed,
		cellMask: g.cellsPerLine - 1, lineWords: g.lineWords()}
	return nil
}

var _ engine.Filter = (*Bloom)(nil)
