package shifting

import (
	"math"
	"math/bits"
	"runtime"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/hashing"
	"github.com/filterengine/filterengine/internal/store"
)

// MaxCount is the largest multiplicity a Multiplicity can encode: offsets
// c - 1 in [0, w̄-1] all fit in the window of one load.
const MaxCount = wBar

// counters is the family option of WithCounters.
type counters struct{}

// WithCounters gives a Multiplicity the paper's counting variant: an 8-bit
// counter behind every bit, so that Update can move a key's count down as
// well as up. It costs 9 bits of memory per bit of the array.
func WithCounters() engine.Option { return config.FamilyOption(counters{}) }

// Multiplicity is ShBF_x, the shifting Bloom filter for multiplicity
// queries (the paper's section 5): a key occurring c times sets k bits
// h_i(e) + c - 1; a query reads its k windows once and answers the largest
// c whose bits are set in all of them. It never reports less than the true
// count, and reports 0 only for keys never added. Not safe for concurrent
// use with writers.
type Multiplicity struct {
	st       *store.Storage
	counts   []uint8 // per-bit counters of WithCounters, nil otherwise
	m        uint64
	k        uint32
	maxCount uint32
	seed     uint64
}

// NewMultiplicity returns a multiplicity filter for n distinct keys with
// counts in [1, maxCount] (maxCount <= MaxCount) at rate p, the chance
// that one given wrong count survives a query: m and k as for a Bloom
// filter of n keys (each key sets k bits).
func NewMultiplicity(n uint64, p float64, maxCount uint32, opts ...engine.Option) (*Multiplicity, error) {
	m, err := engine.OptimalBits(n, p)
	if err != nil {
		return nil, err
	}
	return NewMultiplicityMK(m, engine.OptimalK(m, n), maxCount, opts...)
}

// NewMultiplicityMK returns a multiplicity filter of m positions, k bits
// per key and counts up to maxCount.
func NewMultiplicityMK(m uint64, k uint32, maxCount uint32, opts ...engine.Option) (*Multiplicity, error) {
	cfg := config.Apply(opts)
	withCounters := false
	for _, v := range cfg.Family() {
		if _, ok := v.(counters); !ok {
			return nil, config.UnknownOption("shifting multiplicity", v)
		}
		withCounters = true
	}
	if err := errs.CheckMK(m, k, engine.MaxK); err != nil {
		return nil, err
	}
	if maxCount == 0 || maxCount > MaxCount {
		return nil, paramErrorf("maximum count %d outside [1, %d]", maxCount, MaxCount)
	}
	st, err := store.NewStorage(padWords(m), cfg.HugePages)
	if err != nil {
		return nil, err
	}
	x := &Multiplicity{st: st, m: m, k: k, maxCount: maxCount, seed: cfg.Seed}
	if withCounters {
		x.counts = make([]uint8, x.counterLen())
	}
	return x, nil
}

// counterLen is the number of bits a key can set: positions m plus the
// largest offset.
func (x *Multiplicity) counterLen() uint64 { return x.m + uint64(x.maxCount) - 1 }

// M returns the number of positions.
func (x *Multiplicity) M() uint64 { return x.m }

// K returns the number of bits a key sets.
func (x *Multiplicity) K() uint32 { return x.k }

// MaxCount returns the largest count the filter encodes.
func (x *Multiplicity) MaxCount() uint32 { return x.maxCount }

// Seed returns the hash seed.
func (x *Multiplicity) Seed() uint64 { return x.seed }

// HasCounters reports whether the filter was built WithCounters.
func (x *Multiplicity) HasCounters() bool { return x.counts != nil }

// SizeBytes returns the bytes of the array with its padding and counters.
func (x *Multiplicity) SizeBytes() uint64 { return 8*padWords(x.m) + uint64(len(x.counts)) }

// HugePages reports whether the bits live in huge-page-advised memory.
func (x *Multiplicity) HugePages() bool { return x.st != nil && x.st.HugePages() }

// Close returns huge-page memory at once; the filter must not be used
// afterwards.
func (x *Multiplicity) Close() error {
	if x.st == nil {
		return nil
	}
	// A closed filter is a zero one: its methods panic naming the
	// constructor instead of reading released memory.
	st := x.st
	x.st = nil
	return st.Close()
}

// Add records that key occurs count times, count in [1, MaxCount()]. On a
// filter without counters, adding a key again with a larger count raises
// its answer to that count (the old bits stay set).
func (x *Multiplicity) Add(key []byte, count uint32) error {
	return x.AddHash(engine.HashSeed(key, x.seed), count)
}

// AddHash is Add of a hash.
func (x *Multiplicity) AddHash(h uint64, count uint32) error {
	w := x.bits() // a zero Multiplicity panics naming NewMultiplicity
	if count == 0 || count > x.maxCount {
		return paramErrorf("count %d outside [1, %d]", count, x.maxCount)
	}
	off := uint64(count - 1)
	pa, pb := probeStart(h)
	for range x.k {
		pos := hashing.Reduce(pa, x.m) + off
		pa, pb = pa+pb, pb+phi
		setBit(w, pos)
		if x.counts != nil && x.counts[pos] < math.MaxUint8 {
			x.counts[pos]++
		}
	}
	runtime.KeepAlive(x.st)
	return nil
}

// Count returns the largest count c <= MaxCount() whose k bits are all set
// for key, 0 if there is none (then key was certainly never added).
func (x *Multiplicity) Count(key []byte) uint32 { return x.CountHash(engine.HashSeed(key, x.seed)) }

// CountHash is Count of a hash.
func (x *Multiplicity) CountHash(h uint64) uint32 {
	w := x.bits()
	acc := lowBits(uint64(x.maxCount))
	pa, pb := probeStart(h)
	for range x.k {
		acc &= window(w, hashing.Reduce(pa, x.m))
		if acc == 0 {
			break
		}
		pa, pb = pa+pb, pb+phi
	}
	runtime.KeepAlive(x.st)
	return uint32(bits.Len64(acc))
}

// Update moves key's recorded count from `from` to `to` (0 meaning
// absent), the counting variant's update: the counters behind the old
// offset are decremented and those behind the new one incremented, and
// each bit mirrors whether its counter is non-zero. from must be the count
// key was recorded with; if any of its counters holds fewer of the key's
// probes than land on it (zero, for a key never recorded so) the call
// changes nothing and returns an error, also when from == to. A counter
// that reached 255 stays there, so
// saturation can only over-report. Without WithCounters, Update returns an
// error.
func (x *Multiplicity) Update(key []byte, from, to uint32) error {
	return x.UpdateHash(engine.HashSeed(key, x.seed), from, to)
}

// UpdateHash is Update of a hash.
func (x *Multiplicity) UpdateHash(h uint64, from, to uint32) error {
	w := x.bits() // a zero Multiplicity panics naming NewMultiplicity
	if x.counts == nil {
		return paramErrorf("Update needs a filter built WithCounters")
	}
	if from > x.maxCount || to > x.maxCount {
		return paramErrorf("counts %d -> %d outside [0, %d]", from, to, x.maxCount)
	}
	if from > 0 {
		// Each counter must hold at least the key's probes that land on
		// it (two probes may share a position): else the key was not
		// recorded with count from, and decrementing would wrap a
		// counter and clear bits other keys hold.
		var pos [engine.MaxK]uint64
		pa, pb := probeStart(h)
		for i := range x.k {
			pos[i] = hashing.Reduce(pa, x.m) + uint64(from-1)
			pa, pb = pa+pb, pb+phi
			need := 1
			for _, q := range pos[:i] {
				if q == pos[i] {
					need++
				}
			}
			if int(x.counts[pos[i]]) < need {
				return paramErrorf("key was not recorded with count %d", from)
			}
		}
		if from == to {
			return nil
		}
		for _, p := range pos[:x.k] {
			if c := x.counts[p]; c < math.MaxUint8 {
				x.counts[p] = c - 1
				if c == 1 {
					w[p>>6] &^= 1 << (p & 63)
				}
			}
		}
		runtime.KeepAlive(x.st)
	}
	if from == to {
		return nil
	}
	if to > 0 {
		return x.AddHash(h, to)
	}
	return nil
}

// OverReportRate is the model's probability that a key of true count c is
// reported above c: one of the maxCount - c larger counts survives, each
// with probability f = (1 - p')^k, p' = (1-1/m)^(kn).
func (x *Multiplicity) OverReportRate(n uint64, c uint32) float64 {
	f := math.Pow(1-zeroFraction(x.m, n, x.k), float64(x.k))
	return 1 - math.Pow(1-f, float64(x.maxCount-c))
}
