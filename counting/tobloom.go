package counting

import (
	"runtime"
	"slices"

	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
)

// ToBloom returns the blocked.Narrow filter of 128-bit (4-bit counters)
// or 64-bit blocks (8-bit) whose bit q of block l is set exactly when
// counter q of line l is nonzero: the filter of the same lines, k and
// seed that holds the keys currently counted, so it answers every key
// exactly as this filter does, in a quarter (4-bit) or an eighth (8-bit)
// of the memory. Options go to blocked.NarrowFromWords
// (engine.WithHugePages); the seed is the counting filter's (another
// seed is an error wrapping engine.ErrParam). Under
// concurrent updates it reflects some interleaving of them, each word
// read atomically.
func (f *Filter) ToBloom(opts ...engine.Option) (*blocked.Narrow, error) {
	f.mustHaveLines()
	opts, err := f.twinOptions("ToBloom", opts)
	if err != nil {
		return nil, err
	}
	per := lineCounters(f.wide)
	words := make([]uint64, f.lines*per/64)
	for i := range f.words {
		nz := f.nonzero(load(&f.words[i]))
		if f.wide { // 8 counters a word, 8 words a block word
			words[i/8] |= gatherBytes(nz) << (8 * (i % 8))
		} else { // 16 counters a word, 4 words a block word
			words[i/4] |= gatherNibbles(nz) << (16 * (i % 4))
		}
	}
	runtime.KeepAlive(f.storage)
	return blocked.NarrowFromWords(words, int(per), f.k, opts...)
}

// twinOptions returns the options of ToBloom's twin: the
// caller's, with this filter's seed last so that it holds. A seed other
// than this filter's would give a twin that misses every key: an error.
func (f *Filter) twinOptions(method string, opts []engine.Option) ([]engine.Option, error) {
	if s := config.Apply(opts).Seed; s != 0 && s != f.seed {
		return nil, errs.ParamErrorf("%s keeps the counting filter's seed %d; WithSeed(%d) given", method, f.seed, s)
	}
	return append(slices.Clone(opts), engine.WithSeed(f.seed)), nil
}

// gatherBytes returns the byte whose bit i is bit 8i of x. The multiply
// moves bit 8i to bit 56+i; no two partial products share a bit, so there
// are no carries.
func gatherBytes(x uint64) uint64 {
	return (x & 0x0101010101010101) * 0x0102040810204080 >> 56
}

// gatherNibbles returns the 16 bits whose bit i is bit 4i of x.
func gatherNibbles(x uint64) uint64 {
	even, odd := gatherBytes(x), gatherBytes(x>>4) // bits 8i and 8i+4
	var r uint64
	for i := range 8 {
		r |= (even>>i&1)<<(2*i) | (odd>>i&1)<<(2*i+1)
	}
	return r
}
