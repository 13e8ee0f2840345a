package counting

import (
	"fmt"
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/engine"
)

// Filter is a counting Bloom filter of 4-bit (default) or 8-bit counters,
// 512 per line, one per bit of a blocked line. All methods are safe for
// concurrent use from many goroutines except Close and the
// Unmarshal/ReadFrom methods, which replace the filter.
type Filter struct {
	storage *engine.Storage
	words   []uint64
	lines   uint64
	k       uint32
	seed    uint64
	key     uint64 // engine.Uint64Key(seed)
	lanes
}

// lanes holds the geometry and SWAR constants of one counter width: every
// counter of a word at once.
type lanes struct {
	wide       bool
	lineWords  uint64 // asm.CountingLineWords
	chunkWords uint64 // asm.CountingChunkWords
	counter    uint64 // one counter's value mask
	one        uint64 // the lowest bit of every counter
	low        uint64 // all bits of every counter but its top one
	top        uint64 // the top bit of every counter
	topShift   uint64 // counter width - 1
}

func lanesOf(wide bool) lanes {
	l := lanes{false, asm.CountingLineWords(wide), asm.CountingChunkWords(wide), 0xf, 0x1111111111111111, 0x7777777777777777, 0x8888888888888888, 3}
	if wide {
		l.wide, l.counter, l.one, l.low, l.top, l.topShift = true, 0xff, 0x0101010101010101, 0x7f7f7f7f7f7f7f7f, 0x8080808080808080, 7
	}
	return l
}

// nonzero has the lowest bit of every nonzero counter of x set.
func (l *lanes) nonzero(x uint64) uint64 { return ((x&l.low + l.low) | x) & l.top >> l.topShift }

// saturated has the lowest bit of every counter of x at its maximum set.
func (l *lanes) saturated(x uint64) uint64 { return (x&l.low + l.one) & x & l.top >> l.topShift }

// CountersPerLine is the number of counters of a line: one per bit of a
// blocked line.
const CountersPerLine = blocked.LineBits

// counterBits is the family option WithCounterBits.
type counterBits int

// WithCounterBits selects 4-bit (the default) or 8-bit counters. 8-bit
// counters double the memory; they only matter when keys are added many
// times over.
func WithCounterBits(bits int) engine.Option { return engine.FamilyOption(counterBits(bits)) }

func config(opts []engine.Option) (engine.Config, bool, error) {
	c := engine.Apply(opts)
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
				return c, false, fmt.Errorf("%w: %d-bit counters; want 4 or 8", engine.ErrParam, int(v))
			}
		default:
			return c, false, engine.UnknownOption("counting", v)
		}
	}
	return c, wide, nil
}

// New returns a filter sized for n distinct keys at false-positive rate p
// exactly as blocked.New sizes one: k and the counters per key from
// blocked.BitsPerKeyAndK(p), rounded up to whole lines. Options: engine.WithSeed, engine.WithHugePages, WithCounterBits.
func New(n uint64, p float64, opts ...engine.Option) (*Filter, error) {
	c, wide, err := config(opts)
	if err != nil {
		return nil, err
	}
	lines, k, err := size(n, p)
	if err != nil {
		return nil, err
	}
	return newFilter(lines, k, wide, c)
}

// NewMK returns a filter of at least the given number of counters (rounded
// up to whole lines) and k probes per key, for fixed-size experiments.
func NewMK(counters uint64, k uint32, opts ...engine.Option) (*Filter, error) {
	c, wide, err := config(opts)
	if err != nil {
		return nil, err
	}
	if err := engine.CheckMK(counters, k, min(engine.MaxK, asm.BlockedMaxK)); err != nil {
		return nil, err
	}
	return newFilter((counters+CountersPerLine-1)/CountersPerLine, k, wide, c)
}

func newFilter(lines uint64, k uint32, wide bool, c engine.Config) (*Filter, error) {
	if lines == 0 || lines > maxLines {
		return nil, fmt.Errorf("%w: %d lines outside [1, %d]", engine.ErrParam, lines, uint64(maxLines))
	}
	s, err := engine.NewStorage(lines*asm.CountingLineWords(wide), c.HugePages)
	if err != nil {
		return nil, err
	}
	return &Filter{storage: s, words: s.Words(), lines: lines, k: k,
		seed: c.Seed, key: engine.Uint64Key(c.Seed), lanes: lanesOf(wide)}, nil
}

// K is the number of probes per key (the blocked filter's k).
func (f *Filter) K() uint32 { return f.k }

// Lines is the number of lines of 512 counters (256 or 512 bytes each).
func (f *Filter) Lines() uint64 { return f.lines }

// Counters is the number of counters, lines times 512.
func (f *Filter) Counters() uint64 { return f.lines * CountersPerLine }

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
func (f *Filter) HugePages() bool { return f.storage.HugePages() }

// FPR is the model false-positive rate after n distinct keys (ModelFPR).
func (f *Filter) FPR(n uint64) float64 { return ModelFPR(n, f.lines, f.k) }

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

// EstimateCount estimates the number of distinct keys in the filter from
// the fraction of nonzero counters (engine.EstimateCount over the
// counters, as blocked's EstimatedCount).
func (f *Filter) EstimateCount() float64 {
	if f.Nonzero() == 0 {
		return 0
	}
	return engine.EstimateCount(f.Counters(), f.k, f.Nonzero())
}

// Close releases huge-page memory at once; the filter is unusable after.
// No other goroutine may be using the filter.
func (f *Filter) Close() error {
	f.words = nil
	return f.storage.Close()
}

var _ engine.Filter = (*Filter)(nil)
