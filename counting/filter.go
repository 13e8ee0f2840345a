package counting

import (
	"fmt"
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
)

// Filter is a counting Bloom filter of 4-bit (default) or 8-bit counters,
// 128 or 64 of them per 64-byte line. All methods are safe for concurrent
// use from many goroutines except Close and the Unmarshal/ReadFrom
// methods, which replace the filter.
type Filter struct {
	storage *engine.Storage
	words   []uint64
	lines   uint64
	k       uint32
	seed    uint64
	key     uint64 // engine.Uint64Key(seed)
	lanes
}

// lanes holds the SWAR constants of one counter width: every counter of a
// word at once.
type lanes struct {
	wide     bool
	cellMask uint64 // cells per line - 1
	counter  uint64 // one counter's value mask
	one      uint64 // the lowest bit of every counter
	low      uint64 // all bits of every counter but its top one
	top      uint64 // the top bit of every counter
	topShift uint64 // counter width - 1
}

func lanesOf(wide bool) lanes {
	if wide {
		return lanes{true, 63, 0xff, 0x0101010101010101, 0x7f7f7f7f7f7f7f7f, 0x8080808080808080, 7}
	}
	return lanes{false, 127, 0xf, 0x1111111111111111, 0x7777777777777777, 0x8888888888888888, 3}
}

// nonzero has the lowest bit of every nonzero counter of x set.
func (l *lanes) nonzero(x uint64) uint64 { return ((x&l.low + l.low) | x) & l.top >> l.topShift }

// saturated has the lowest bit of every counter of x at its maximum set.
func (l *lanes) saturated(x uint64) uint64 { return (x&l.low + l.one) & x & l.top >> l.topShift }

// cellsPerLine is 128 4-bit or 64 8-bit counters.
func cellsPerLine(wide bool) uint32 {
	if wide {
		return 64
	}
	return 128
}

// counterBits is the family option WithCounterBits.
type counterBits int

// WithCounterBits selects 4-bit (the default) or 8-bit counters. 8-bit
// counters double the memory per counter and halve the cells per line;
// they only matter when keys are added many times over.
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

// New returns a filter sized for n distinct keys at false-positive rate p:
// the fewest lines, and then the fewest probes, for which ModelFPR is at
// most p. Options: engine.WithSeed, engine.WithHugePages, WithCounterBits.
func New(n uint64, p float64, opts ...engine.Option) (*Filter, error) {
	c, wide, err := config(opts)
	if err != nil {
		return nil, err
	}
	lines, k, err := size(n, p, cellsPerLine(wide))
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
	if err := engine.CheckMK(counters, k, engine.MaxK); err != nil {
		return nil, err
	}
	b := uint64(cellsPerLine(wide))
	return newFilter((counters+b-1)/b, k, wide, c)
}

func newFilter(lines uint64, k uint32, wide bool, c engine.Config) (*Filter, error) {
	if lines == 0 || lines > maxLines {
		return nil, fmt.Errorf("%w: %d lines outside [1, %d]", engine.ErrParam, lines, uint64(maxLines))
	}
	s, err := engine.NewStorage(lines*asm.CountingLineWords, c.HugePages)
	if err != nil {
		return nil, err
	}
	return &Filter{storage: s, words: s.Words(), lines: lines, k: k,
		seed: c.Seed, key: engine.Uint64Key(c.Seed), lanes: lanesOf(wide)}, nil
}

// K is the number of cells per key.
func (f *Filter) K() uint32 { return f.k }

// Lines is the number of 64-byte lines.
func (f *Filter) Lines() uint64 { return f.lines }

// Counters is the number of counters, lines times 128 (4-bit) or 64.
func (f *Filter) Counters() uint64 { return f.lines * uint64(cellsPerLine(f.wide)) }

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
func (f *Filter) FPR(n uint64) float64 { return ModelFPR(n, f.lines, f.k, f.CounterBits()) }

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

// Nonzero returns how many counters are nonzero: the set bits of the
// filter's Bloom twin.
func (f *Filter) Nonzero() uint64 {
	var n uint64
	for i := range f.words {
		n += uint64(popcount(f.nonzero(load(&f.words[i]))))
	}
	runtime.KeepAlive(f.storage)
	return n
}

// EstimateCount estimates the number of distinct keys in the filter from
// the fraction of nonzero counters (engine.EstimateCount over the cells).
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
