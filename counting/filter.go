package counting

import (
	"fmt"
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/hashing"
	"github.com/filterengine/filterengine/internal/store"
)

// Filter is a counting Bloom filter of 4-bit (default) or 8-bit counters,
// a key's counters in one 64-byte line: 128 4-bit or 64 8-bit counters a
// line. Reads and the *Concurrent writers are safe from many goroutines
// at once; the plain writers need the filter to themselves (package doc,
// Concurrency). The zero Filter holds no counters: its accessors report
// zeros and every other method panics with a message naming New.
type Filter struct {
	storage *store.Storage
	words   []uint64
	lines   uint64
	k       uint32
	seed    uint64
	key     uint64 // hashing.Uint64Key(seed)
	lanes
	probe asm.CountingProbe // the single-key test kernels' view (setProbe)
}

// lanes holds the SWAR constants of one counter width: every counter of
// a word at once.
type lanes struct {
	wide     bool
	counter  uint64 // one counter's value mask
	one      uint64 // the lowest bit of every counter
	low      uint64 // all bits of every counter but its top one
	top      uint64 // the top bit of every counter
	topShift uint64 // counter width - 1
}

func lanesOf(wide bool) lanes {
	l := lanes{false, 0xf, 0x1111111111111111, 0x7777777777777777, 0x8888888888888888, 3}
	if wide {
		l = lanes{true, 0xff, 0x0101010101010101, 0x7f7f7f7f7f7f7f7f, 0x8080808080808080, 7}
	}
	return l
}

// nonzero has the lowest bit of every nonzero counter of x set.
func (l *lanes) nonzero(x uint64) uint64 { return ((x&l.low + l.low) | x) & l.top >> l.topShift }

// saturated has the lowest bit of every counter of x at its maximum set.
func (l *lanes) saturated(x uint64) uint64 { return (x&l.low + l.one) & x & l.top >> l.topShift }

// counterBits is the family option WithCounterBits.
type counterBits int

// WithCounterBits selects 4-bit (the default, 128 counters a line) or
// 8-bit counters (64 a line). 8-bit counters cost 2.2x the memory at
// p = 1%; they only matter when keys are added many times over.
func WithCounterBits(bits int) engine.Option { return config.FamilyOption(counterBits(bits)) }

func applyOptions(opts []engine.Option) (config.Config, bool, error) {
	c := config.Apply(opts)
	wide := false
	for _, o := range c.Family() {
		switch v := o.(type) {
		case counterBits:
			switch v {
			case 4:
				wide = false
			case 8:
				wide = true
			default:
				return c, false, errs.ParamErrorf("%d-bit counters; want 4 or 8", int(v))
			}
		default:
			return c, false, config.UnknownOption("counting", v)
		}
	}
	return c, wide, nil
}

// lineCounters is the number of counters of a line: 128 (4-bit) or 64.
func lineCounters(wide bool) uint64 { return 1 << asm.CountingLogBits(wide) }

// New returns a filter sized for n distinct keys at false-positive rate p
// as blocked.NewNarrow sizes its twin of 128-bit (4-bit counters) or
// 64-bit blocks (8-bit): k and the counters per key from
// blocked.NarrowBitsPerKeyAndK(p), rounded up to whole lines. Options:
// engine.WithSeed, engine.WithHugePages, WithCounterBits.
func New(n uint64, p float64, opts ...engine.Option) (*Filter, error) {
	c, wide, err := applyOptions(opts)
	if err != nil {
		return nil, err
	}
	lines, k, err := size(n, p, wide)
	if err != nil {
		return nil, err
	}
	return newFilter(lines, k, wide, c)
}

// NewMK returns a filter of at least the given number of counters (rounded
// up to whole lines) and k probes per key, for fixed-size experiments.
func NewMK(counters uint64, k uint32, opts ...engine.Option) (*Filter, error) {
	c, wide, err := applyOptions(opts)
	if err != nil {
		return nil, err
	}
	if err := errs.CheckMK(counters, k, engine.MaxK); err != nil {
		return nil, err
	}
	per := lineCounters(wide)
	return newFilter((counters+per-1)/per, k, wide, c)
}

func newFilter(lines uint64, k uint32, wide bool, c config.Config) (*Filter, error) {
	if lines == 0 || lines > maxLines(wide) {
		return nil, errs.ParamErrorf("%d lines outside [1, %d]", lines, maxLines(wide))
	}
	s, err := store.NewStorage(lines*asm.CountingLineWords, c.HugePages)
	if err != nil {
		return nil, err
	}
	f := &Filter{storage: s, words: s.Words(), lines: lines, k: k,
		seed: c.Seed, key: hashing.Uint64Key(c.Seed), lanes: lanesOf(wide)}
	f.setProbe()
	return f, nil
}

// Reset sets every counter to zero, keeping the geometry and the seed. It
// is a plain writer, as Add: it needs the filter to itself.
func (f *Filter) Reset() {
	f.mustHaveLines()
	clear(f.words)
	runtime.KeepAlive(f.storage)
}

// K is the number of probes per key.
func (f *Filter) K() uint32 { return f.k }

// Lines is the number of lines, 64 bytes each.
func (f *Filter) Lines() uint64 { return f.lines }

// M is the number of counters.
func (f *Filter) M() uint64 {
	return f.lines * lineCounters(f.wide)
}

// SizeBytes is the memory of the counters.
func (f *Filter) SizeBytes() uint64 { return 8 * uint64(len(f.words)) }

// CounterBits is 4 or 8.
func (f *Filter) CounterBits() int {
	if f.wide {
		return 8
	}
	return 4
}

// Seed is the hash seed.
func (f *Filter) Seed() uint64 { return f.seed }

// HugePages reports whether the counters live in huge-page memory.
func (f *Filter) HugePages() bool { return f.storage != nil && f.storage.HugePages() }

// ModelFPR is the model false-positive rate after n distinct keys: the
// model of ToBloom's twin (package doc).
func (f *Filter) ModelFPR(n uint64) float64 {
	f.mustHaveLines()
	return modelFPR(n, f.lines, f.k, f.CounterBits())
}

// String describes the filter in one line of at most 200 bytes.
func (f *Filter) String() string {
	return fmt.Sprintf("counting.Filter{counters: %d, k: %d, %d-bit, %d bytes}", f.M(), f.k, f.CounterBits(), f.SizeBytes())
}

// Saturated returns how many counters are at their maximum (15 or 255).
// They stay there: no Remove decrements them.
func (f *Filter) Saturated() uint64 {
	var n uint64
	for i := range f.words {
		n += uint64(popcount(f.saturated(load(&f.words[i]))))
	}
	runtime.KeepAlive(f.storage)
	return n
}

// Nonzero returns how many counters are nonzero: the set bits of
// ToBloom's filter.
func (f *Filter) Nonzero() uint64 {
	var n uint64
	for i := range f.words {
		n += uint64(popcount(f.nonzero(load(&f.words[i]))))
	}
	runtime.KeepAlive(f.storage)
	return n
}

// EstimatedCount estimates the number of distinct keys in the filter
// from the fraction of nonzero counters (engine.EstimateCount over the
// counters, as blocked's EstimatedCount).
func (f *Filter) EstimatedCount() float64 {
	f.mustHaveLines()
	nz := f.Nonzero()
	if nz == 0 {
		return 0
	}
	return engine.EstimateCount(f.M(), f.k, nz)
}

// Clone returns a copy of the filter, each word read atomically, in
// huge-page memory if the filter's is (plain memory if none is left).
func (f *Filter) Clone() *Filter {
	f.mustHaveLines()
	mode := engine.HugePagesNever
	if f.HugePages() {
		mode = engine.HugePagesAlways
	}
	s, err := store.NewStorage(uint64(len(f.words)), mode)
	if err != nil {
		if s, err = store.NewStorage(uint64(len(f.words)), engine.HugePagesNever); err != nil {
			panic(err) // memory refused: an error wrapping engine.ErrMemory
		}
	}
	g := *f
	g.storage, g.words = s, s.Words()
	g.setProbe()
	for i := range g.words {
		g.words[i] = load(&f.words[i])
	}
	runtime.KeepAlive(f.storage)
	return &g
}

// Close releases huge-page memory at once; the filter is unusable after.
// No other goroutine may be using the filter.
func (f *Filter) Close() error {
	if f.storage == nil { // the zero Filter: nothing to release
		return nil
	}
	// A closed filter is a zero one: every method takes the zero value's
	// path (mustHaveLines), none computes a line from the nil words.
	f.words, f.lines = nil, 0
	f.setProbe()
	return f.storage.Close()
}

var _ engine.Filter = (*Filter)(nil)
