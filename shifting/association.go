package shifting

import (
	"math"
	"math/bits"
	"runtime"
	"strings"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/hashing"
	"github.com/filterengine/filterengine/internal/store"
)

// Sets says which of the two sets S1, S2 of an Association a key belongs
// to.
type Sets uint8

const (
	InS1   Sets = 1           // the key is in S1
	InS2   Sets = 2           // the key is in S2
	InBoth Sets = InS1 | InS2 // the key is in S1 ∩ S2
)

// Answer is the set of outcomes an association query cannot rule out, a
// bitmask of OnlyS1, OnlyS2 and Both. One outcome is the paper's clear
// answer; two or three are its unclear answers; none means the key is in
// neither set (certainly).
type Answer uint8

const (
	OnlyS1 Answer = 1 << iota // the key may be in S1 - S2
	OnlyS2                    // the key may be in S2 - S1
	Both                      // the key may be in S1 ∩ S2
)

// Clear reports whether exactly one outcome remains.
func (a Answer) Clear() bool { return bits.OnesCount8(uint8(a)) == 1 }

// None reports whether the key is certainly in neither set.
func (a Answer) None() bool { return a == 0 }

// Has reports whether outcome o (one of OnlyS1, OnlyS2, Both) remains.
func (a Answer) Has(o Answer) bool { return a&o != 0 }

func (a Answer) String() string {
	if a == 0 {
		return "neither"
	}
	var parts []string
	for _, o := range []struct {
		a Answer
		s string
	}{{OnlyS1, "S1 only"}, {OnlyS2, "S2 only"}, {Both, "both"}} {
		if a&o.a != 0 {
			parts = append(parts, o.s)
		}
	}
	return strings.Join(parts, " or ")
}

// outcomeOf is the one outcome a key of the given sets has.
func outcomeOf(s Sets) Answer {
	switch s {
	case InS1:
		return OnlyS1
	case InS2:
		return OnlyS2
	}
	return Both
}

// halfOffset is (w̄-1)/2: o1 is in [1, 28] and o2 - o1 in [1, 28], so
// o2 <= 56 stays inside the window of one load.
const halfOffset = (wBar - 1) / 2

// Association is ShBF_A, the shifting Bloom filter for association queries
// over two sets S1 and S2 (the paper's section 4): each key sets k bits
// h_i(e) + off, with off = 0 for S1 - S2, o1(e) for S1 ∩ S2 and o2(e) for
// S2 - S1. A query reads each of its k windows once and sees all three
// candidates. Not safe for concurrent use with writers.
type Association struct {
	st   *store.Storage
	m    uint64
	k    uint32
	seed uint64
}

// NewAssociation returns an association filter for n insertions (the
// distinct keys of S1 ∪ S2, a key added to each set separately counting
// twice) at rate p, the chance that one given wrong outcome survives a
// query: m = -n ln p / (ln 2)^2 and k = round((m/n) ln 2), as for a Bloom
// filter, since each key sets k bits.
func NewAssociation(n uint64, p float64, opts ...engine.Option) (*Association, error) {
	m, err := engine.OptimalBits(n, p)
	if err != nil {
		return nil, err
	}
	return NewAssociationMK(m, engine.OptimalK(m, n), opts...)
}

// NewAssociationMK returns an association filter of m positions and k
// bits per key.
func NewAssociationMK(m uint64, k uint32, opts ...engine.Option) (*Association, error) {
	cfg, err := plainConfig("shifting association", opts)
	if err != nil {
		return nil, err
	}
	if err := errs.CheckMK(m, k, engine.MaxK); err != nil {
		return nil, err
	}
	st, err := store.NewStorage(padWords(m), cfg.HugePages)
	if err != nil {
		return nil, err
	}
	return &Association{st: st, m: m, k: k, seed: cfg.Seed}, nil
}

// M returns the number of positions; K the bits a key sets.
func (a *Association) M() uint64 { return a.m }

// K returns the number of bits a key sets.
func (a *Association) K() uint32 { return a.k }

// Seed returns the hash seed.
func (a *Association) Seed() uint64 { return a.seed }

// SizeBytes returns the bytes of the array with its padding.
func (a *Association) SizeBytes() uint64 { return 8 * padWords(a.m) }

// HugePages reports whether the bits live in huge-page-advised memory.
func (a *Association) HugePages() bool { return a.st != nil && a.st.HugePages() }

// Close returns huge-page memory at once; the filter must not be used
// afterwards.
func (a *Association) Close() error {
	if a.st == nil {
		return nil
	}
	// A closed filter is a zero one: its methods panic naming the
	// constructor instead of reading released memory.
	st := a.st
	a.st = nil
	return st.Close()
}

// associationOffsets returns o1 in [1, 28] and o2 in [o1+1, o1+28].
func associationOffsets(h uint64, k uint32) (o1, o2 uint64) {
	o1 = hashing.Reduce(asm.ShiftingRawAt(h, uint64(k)), halfOffset) + 1
	o2 = o1 + hashing.Reduce(asm.ShiftingRawAt(h, uint64(k)+1), halfOffset) + 1
	return o1, o2
}

// Add inserts key as a member of the sets s. A key of S1 ∩ S2 is best
// added once with InBoth (the paper's encoding); adding it with InS1 and
// with InS2 separately is also correct, and its answers then include Both
// among the outcomes.
func (a *Association) Add(key []byte, s Sets) error {
	return a.AddHash(engine.HashSeed(key, a.seed), s)
}

// AddHash is Add of a hash.
func (a *Association) AddHash(h uint64, s Sets) error {
	var off uint64
	o1, o2 := associationOffsets(h, a.k)
	switch s {
	case InS1:
	case InS2:
		off = o2
	case InBoth:
		off = o1
	default:
		return paramErrorf("sets %d: want InS1, InS2 or InBoth", s)
	}
	w := a.bits()
	pa, pb := probeStart(h)
	for range a.k {
		setBit(w, hashing.Reduce(pa, a.m)+off)
		pa, pb = pa+pb, pb+phi
	}
	runtime.KeepAlive(a.st)
	return nil
}

// Query returns the outcomes key cannot be ruled out of. For a key of
// S1 ∪ S2 it always includes the key's true outcome; Both is also
// reported whenever S1 only and S2 only both survive, since a key added
// once to each set looks like that.
func (a *Association) Query(key []byte) Answer { return a.QueryHash(engine.HashSeed(key, a.seed)) }

// QueryHash is Query of a hash.
func (a *Association) QueryHash(h uint64) Answer {
	w := a.bits()
	o1, o2 := associationOffsets(h, a.k)
	acc, any := ^uint64(0), uint64(1|1<<o1|1<<o2)
	pa, pb := probeStart(h)
	for range a.k {
		acc &= window(w, hashing.Reduce(pa, a.m))
		if acc&any == 0 {
			break
		}
		pa, pb = pa+pb, pb+phi
	}
	runtime.KeepAlive(a.st)
	var ans Answer
	s1, both, s2 := acc&1 != 0, acc>>o1&1 != 0, acc>>o2&1 != 0
	if s1 {
		ans |= OnlyS1
	}
	if s2 {
		ans |= OnlyS2
	}
	if both || s1 && s2 {
		ans |= Both
	}
	return ans
}

// ClearRate is the model's probability that a query of a member returns a
// clear answer after n insertions (the key added once): the two wrong outcomes must each fail, each surviving with
// probability f = (1 - p')^k, p' = (1-1/m)^(kn), so (1 - f)^2.
func (a *Association) ClearRate(n uint64) float64 {
	f := math.Pow(1-zeroFraction(a.m, n, a.k), float64(a.k))
	return (1 - f) * (1 - f)
}

// CandidateFPR is the model's probability (1 - p')^k that one given wrong
// outcome survives a query after n keys.
func (a *Association) CandidateFPR(n uint64) float64 {
	return math.Pow(1-zeroFraction(a.m, n, a.k), float64(a.k))
}
