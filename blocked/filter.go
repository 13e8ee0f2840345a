package blocked

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"unsafe"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/batch"
)

// Filter is a cache-line-blocked Bloom filter. Plain reads (Test and its
// forms) are safe from many goroutines; a writer needs exclusive use, or
// the *Concurrent forms (see AddHashConcurrent).
//
// A zero Filter holds no key: its reads answer absent, and its writes
// panic with a message naming New.
type Filter struct {
	storage *engine.Storage
	words   []uint64 // storage.Words(): lines*8 words
	lines   uint64
	k       uint32
	seed    uint64
	key     uint64 // engine.Uint64Key(seed), for the uint64 forms

	// keep and take are asm.BlockedRows(k) for a filter with lines and
	// k <= 8, else nil: where they are set, Test and Add run the probe's
	// one round in the method (see lineOf).
	keep, take *[8][8]uint64
}

var _ engine.Filter = (*Filter)(nil)

func config(opts []engine.Option) (engine.Config, error) {
	c := engine.Apply(opts)
	for _, v := range c.Family() {
		return c, engine.UnknownOption("blocked", v)
	}
	return c, nil
}

// New returns a filter sized for n keys at false-positive rate p: k and
// the bits per key come from BitsPerKeyAndK(p), the array is rounded up to
// whole lines.
func New(n uint64, p float64, opts ...engine.Option) (*Filter, error) {
	if err := engine.CheckNP(n, p); err != nil {
		return nil, err
	}
	bpk, k, err := BitsPerKeyAndK(p)
	if err != nil {
		return nil, err
	}
	m := math.Ceil(float64(n)*bpk/LineBits) * LineBits
	if m > engine.MaxBits {
		return nil, engine.ParamErrorf("n = %d, p = %v needs %.3g bits, above the maximum %d", n, p, m, uint64(engine.MaxBits))
	}
	return NewMK(uint64(m), k, opts...)
}

// NewMK returns a filter of m bits rounded up to whole 512-bit lines with
// k probes per key, for experiments with a fixed array.
func NewMK(m uint64, k uint32, opts ...engine.Option) (*Filter, error) {
	if err := engine.CheckMK(m, k, asm.BlockedMaxK); err != nil {
		return nil, err
	}
	c, err := config(opts)
	if err != nil {
		return nil, err
	}
	lines := (m + LineBits - 1) / LineBits
	s, err := engine.NewStorage(lines*8, c.HugePages)
	if err != nil {
		return nil, err
	}
	return newFilter(s, lines, k, c.Seed), nil
}

// FromWords returns a filter over a copy of words, which must hold a whole
// number of lines laid out as Line and Mask say, with k probes. It is the
// constructor for another structure that converts itself into an
// equivalent blocked filter.
func FromWords(words []uint64, k uint32, opts ...engine.Option) (*Filter, error) {
	if len(words) == 0 || len(words)%8 != 0 {
		return nil, engine.ParamErrorf("%d words are not a whole number of 8-word lines", len(words))
	}
	f, err := NewMK(uint64(len(words))*64, k, opts...)
	if err != nil {
		return nil, err
	}
	copy(f.words, words)
	return f, nil
}

func newFilter(s *engine.Storage, lines uint64, k uint32, seed uint64) *Filter {
	f := &Filter{storage: s, words: s.Words(), lines: lines, k: k, seed: seed, key: engine.Uint64Key(seed)}
	if lines > 0 && uint64(len(f.words)) == lines*8 && k <= 8 {
		f.keep, f.take = asm.BlockedRows(k)
	}
	return f
}

// Line returns the index of the line a key with hash h occupies in a
// filter of lines lines.
func Line(h, lines uint64) uint64 { return asm.BlockedLine(h, lines) }

// Mask returns the bits a key with hash h sets in its line, word by word,
// with k probes (the layout in the package doc).
func Mask(h uint64, k uint32) [8]uint64 { return asm.BlockedMask(h, k) }

// M returns the number of bits, a multiple of 512.
func (f *Filter) M() uint64 { return f.lines * LineBits }

// K returns the number of probes per key.
func (f *Filter) K() uint32 { return f.k }

// Lines returns the number of 64-byte lines.
func (f *Filter) Lines() uint64 { return f.lines }

// Seed returns the hash seed.
func (f *Filter) Seed() uint64 { return f.seed }

// SizeBytes returns the size of the bit array.
func (f *Filter) SizeBytes() uint64 { return f.lines * 64 }

// HugePages reports whether the array lives in huge-page-advised memory.
func (f *Filter) HugePages() bool { return f.storage != nil && f.storage.HugePages() }

// Words returns the bit array (lines*8 words, laid out as Line and Mask
// say). It aliases the filter and is invalid after Close.
func (f *Filter) Words() []uint64 { return f.words }

// Close releases a huge-page array at once instead of at garbage
// collection. The filter must not be used afterwards; it then answers as
// a zero Filter.
func (f *Filter) Close() error {
	f.words, f.lines, f.keep, f.take = nil, 0, nil, nil
	if f.storage == nil {
		return nil
	}
	return f.storage.Close()
}

// String describes the filter in one line: its parameters, never its bits.
func (f *Filter) String() string {
	mem := "heap"
	if f.HugePages() {
		mem = "huge pages"
	}
	return fmt.Sprintf("blocked.Filter{m: %d, k: %d, lines: %d, seed: %#x, %s}", f.M(), f.k, f.lines, f.seed, mem)
}

// ModelFPR is the false-positive rate the model (FPR) predicts for this
// filter after n distinct keys; 0 for a zero Filter, which holds no key.
func (f *Filter) ModelFPR(n uint64) float64 {
	if f.lines == 0 {
		return 0
	}
	return FPR(f.M(), n, f.k)
}

// hash is engine.HashSeed(key, f.seed).
func (f *Filter) hash(key []byte) uint64 {
	if h, ok := f.hash8(key); ok {
		return h
	}
	return engine.HashSeed(key, f.seed)
}

// hash8 is hash of an 8-byte key, XXH3's formula for that length with
// the seed's constant precomputed (f.key), and false for other lengths.
// It is small enough to inline where hash is not, so Test, Add and
// TestAndAdd of an 8-byte key make one call, the probe's.
func (f *Filter) hash8(key []byte) (uint64, bool) {
	if len(key) != 8 {
		return 0, false
	}
	return engine.HashUint64Keyed(binary.LittleEndian.Uint64(key), f.key), true
}

// The single-key methods stay within the compiler's inlining budget (cost
// 80) so that a caller's loop pays one call per key, the probe's: a zero
// Filter is caught inside that probe and inside the batch entry points
// (asm answers false for words without a line and panics on a write with
// the message of zeroFilter), not here.

// AddHash adds a key given its hash engine.HashSeed(key, f.Seed()).
func (f *Filter) AddHash(h uint64) {
	asm.BlockedAddHash(f.words, h, f.k)
	runtime.KeepAlive(f.storage)
}

// TestHash reports whether the key with hash h may have been added.
func (f *Filter) TestHash(h uint64) bool {
	ok := asm.BlockedTestHash(f.words, h, f.k)
	runtime.KeepAlive(f.storage)
	return ok
}

// TestAndAddHash adds the key with hash h and reports whether it tested
// present before: the one call a deduplicating stream needs.
func (f *Filter) TestAndAddHash(h uint64) bool {
	ok := asm.BlockedTestAndAddHash(f.words, h, f.k)
	runtime.KeepAlive(f.storage)
	return ok
}

// round returns the line of hash h, the round value g = h*BlockedMul
// and the index of the key's window row in f.keep and f.take. Only for a
// filter with f.keep set, which has len(f.words) == 8*f.lines >= 8: the
// line index is below f.lines by construction, so the line pointer
// needs no check.
func (f *Filter) round(h uint64) (line *[8]uint64, g, row uint64) {
	line = (*[8]uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(f.words)), asm.BlockedLine(h, f.lines)*64))
	g = h * asm.BlockedMul
	return line, g, g >> 13 & 7
}

// For k <= 8 the key-taking single-key methods below run the probe's one
// round themselves (asm.BlockedRoundHas, asm.BlockedRoundSet, which run
// without a stack frame), so a key costs one call after its hash; other
// filters, and a zero Filter, take the Hash forms.

// Add adds key.
func (f *Filter) Add(key []byte) {
	h, ok := f.hash8(key)
	if !ok {
		h = engine.HashSeed(key, f.seed)
	}
	if f.take == nil {
		f.AddHash(h) // more than one round, or a zero Filter, which panics there
		return
	}
	line, g, row := f.round(h)
	asm.BlockedRoundSet(line, g, &f.take[row])
	runtime.KeepAlive(f.storage)
}

// Test reports whether key may have been added; false is certain.
func (f *Filter) Test(key []byte) bool {
	h, ok := f.hash8(key)
	if !ok {
		h = engine.HashSeed(key, f.seed)
	}
	if f.keep == nil {
		return f.TestHash(h)
	}
	line, g, row := f.round(h)
	ok = asm.BlockedRoundHas(line, g, &f.keep[row]) == ^uint64(0)
	runtime.KeepAlive(f.storage)
	return ok
}

// TestAndAdd adds key and reports whether it tested present before.
func (f *Filter) TestAndAdd(key []byte) bool {
	h, ok := f.hash8(key)
	if !ok {
		h = engine.HashSeed(key, f.seed)
	}
	if f.keep == nil {
		return f.TestAndAddHash(h)
	}
	line, g, row := f.round(h)
	present := asm.BlockedRoundHas(line, g, &f.keep[row]) == ^uint64(0)
	if !present {
		asm.BlockedRoundSet(line, g, &f.take[row])
	}
	runtime.KeepAlive(f.storage)
	return present
}

// AddUint64 adds the 8 little-endian bytes of k (hashed without building
// them, engine.HashUint64Seed).
func (f *Filter) AddUint64(k uint64) {
	h := engine.HashUint64Keyed(k, f.key)
	if f.take == nil {
		f.AddHash(h)
		return
	}
	line, g, row := f.round(h)
	asm.BlockedRoundSet(line, g, &f.take[row])
	runtime.KeepAlive(f.storage)
}

// TestUint64 is Test of the 8 little-endian bytes of k.
func (f *Filter) TestUint64(k uint64) bool {
	h := engine.HashUint64Keyed(k, f.key)
	if f.keep == nil {
		return f.TestHash(h)
	}
	line, g, row := f.round(h)
	ok := asm.BlockedRoundHas(line, g, &f.keep[row]) == ^uint64(0)
	runtime.KeepAlive(f.storage)
	return ok
}

// AddString adds the bytes of s without copying them (no allocation for
// any length).
func (f *Filter) AddString(s string) { f.AddHash(engine.HashStringSeed(s, f.seed)) }

// TestString is Test of the bytes of s, without copying them.
func (f *Filter) TestString(s string) bool { return f.TestHash(engine.HashStringSeed(s, f.seed)) }

// zeroFilter panics with the message of a write to a Filter without lines
// (the zero value, or after Close).
func zeroFilter() { batch.Zero("blocked.Filter", "blocked.New") }

// AddHashes adds every hash in hs with the batch kernel.
func (f *Filter) AddHashes(hs []uint64) {
	asm.BlockedAddHashes(f.words, f.k, hs)
	runtime.KeepAlive(f.storage)
}

// TestHashes sets out[i] = TestHash(hs[i]) with the batch kernel and
// returns the number of hits. out must be at least as long as hs.
func (f *Filter) TestHashes(hs []uint64, out []bool) int {
	out = batch.Out("blocked.Filter", out, len(hs))
	n := asm.BlockedTestHashes(f.words, f.k, hs, out)
	runtime.KeepAlive(f.storage)
	return n
}

// AddUint64s adds the 8 little-endian bytes of every key, hashed in batch.
func (f *Filter) AddUint64s(ks []uint64) {
	keyBatch{f: f}.add(ks, nil, len(ks))
}

// TestUint64s sets out[i] to Test of the 8 little-endian bytes of ks[i]
// and returns the number of hits. out must be at least as long as ks.
func (f *Filter) TestUint64s(ks []uint64, out []bool) int {
	return keyBatch{f: f}.test(ks, nil, len(ks), out)
}

// AddKeys adds every key.
func (f *Filter) AddKeys(keys [][]byte) {
	keyBatch{f: f}.add(nil, keys, len(keys))
}

// TestKeys sets out[i] = Test(keys[i]) and returns the number of hits.
// out must be at least as long as keys.
func (f *Filter) TestKeys(keys [][]byte, out []bool) int {
	return keyBatch{f: f}.test(nil, keys, len(keys), out)
}

// compatible reports why g cannot be combined with f, if it cannot.
func (f *Filter) compatible(g *Filter) error {
	if f.lines != g.lines || f.k != g.k || f.seed != g.seed {
		return engine.ParamErrorf("blocked filters differ (lines %d/%d, k %d/%d, seed %d/%d)", f.lines, g.lines, f.k, g.k, f.seed, g.seed)
	}
	return nil
}

// Union adds every key of g to f: a bitwise OR. Both must have the same
// size, k and seed.
func (f *Filter) Union(g *Filter) error {
	if err := f.compatible(g); err != nil {
		return err
	}
	for i, w := range g.words {
		f.words[i] |= w
	}
	runtime.KeepAlive(f.storage)
	runtime.KeepAlive(g.storage)
	return nil
}

// Equal reports whether f and g have the same parameters and bits.
func (f *Filter) Equal(g *Filter) bool {
	if f.compatible(g) != nil {
		return false
	}
	for i, w := range g.words {
		if f.words[i] != w {
			return false
		}
	}
	return true
}

// Clone returns an independent copy of f, in huge-page memory if f is
// and the system gives it, else on the heap. A zero Filter clones to a
// zero Filter.
func (f *Filter) Clone() *Filter {
	if len(f.words) == 0 {
		return &Filter{}
	}
	mode := engine.HugePagesNever
	if f.HugePages() {
		mode = engine.HugePagesAlways
	}
	s, err := engine.NewStorage(f.lines*8, mode)
	if err != nil && mode != engine.HugePagesNever {
		s, err = engine.NewStorage(f.lines*8, engine.HugePagesNever)
	}
	if err != nil {
		panic(fmt.Sprintf("blocked: Clone of %d bytes: %v", f.SizeBytes(), err))
	}
	g := newFilter(s, f.lines, f.k, f.seed)
	copy(g.words, f.words)
	runtime.KeepAlive(f.storage)
	return g
}

// Reset clears every bit.
func (f *Filter) Reset() {
	clear(f.words)
	runtime.KeepAlive(f.storage)
}

// setBits counts the bits that are one.
func (f *Filter) setBits() uint64 {
	var n uint64
	for _, w := range f.words {
		n += uint64(bits.OnesCount64(w))
	}
	runtime.KeepAlive(f.storage)
	return n
}

// FillRatio returns the fraction of bits that are one (0 for a zero
// Filter).
func (f *Filter) FillRatio() float64 {
	if f.lines == 0 {
		return 0
	}
	return float64(f.setBits()) / float64(f.M())
}

// EstimatedCount estimates the number of distinct keys added from the
// number of set bits (Swamidass & Baldi): every key sets k bits spread
// uniformly over the array, as in a standard Bloom filter. A zero Filter
// holds none.
func (f *Filter) EstimatedCount() float64 {
	if f.lines == 0 {
		return 0
	}
	return engine.EstimateCount(f.M(), f.k, f.setBits())
}

// EstimatedFPR is the model FPR at the estimated count.
func (f *Filter) EstimatedFPR() float64 {
	n := f.EstimatedCount()
	if math.IsInf(n, 1) {
		return 1
	}
	return FPR(f.M(), uint64(math.Round(n)), f.k)
}
