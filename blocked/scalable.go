package blocked

import (
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/batch"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/hashing"
)

// maxStages bounds the stages of a Scalable: with growth 2 from one key,
// stage 45 would already need more than engine.MaxBits.
const maxStages = 64

// Scalable is the scalable Bloom filter of Almeida, Baquero, Preguiça and
// Hutchison ("Scalable Bloom Filters", Information Processing Letters
// 101(6), 2007) built from blocked filters: it holds any number of keys
// at a false-positive rate that stays below p.
//
// Layout. Stage i (from 0) is a blocked filter for hint*s^i keys at
// p_i = p0 * r^i, sized as New sizes it except that k = 8 is preferred
// whenever its whole lines are at most 6% more bits (at p = 1%, r = 0.85
// it is for stages 0 to 15, the first 65.5 million keys from a hint of
// 1e3; from stage 16 on k rises from 12), with p0 = p*(1-r), growth s
// (WithGrowth, default 2) and tightening ratio r (WithTightening, default
// 0.85). Keys go to the newest stage; a key that arrives when the newest
// stage holds its hint*s^i keys opens stage i+1. Every stage hashes a key
// with the same h = engine.HashSeed(key, seed): line and in-line bits come
// from h as the package doc says, and the stages hold disjoint key sets in
// arrays of different sizes, so an absent key's answers in two stages
// depend on different keys and are independent (TestScalableFPR measures
// the compound rate against the product below, which assumes it).
//
// FPR bound. An absent key is a false positive if any stage says yes; a
// stage holding at most its hint*s^i keys says yes with chance
// f_i <= p_i by the model of FPR. So after any number of keys
//
//	FPR = 1 - Π (1 - f_i) <= Σ f_i <= Σ p_i = p0 * Σ r^i < p0 / (1-r) = p,
//
// however many stages there are (ModelFPR gives the product for n keys).
// The price is space: stage i needs bits per key for p0*r^i, which grows
// by about log2(1/r)/ln 2 bits per key per stage (the total stays within
// a constant factor of one filter sized for the final count when s >= 2).
// With the defaults at p = 1%, NewScalable(1e3, 0.01) holds 1e7 keys in
// 14 stages. The bound holds until the next stage cannot be built: it
// would exceed engine.MaxBits, its rate p_i is below what a line per key
// reaches, there are 64 stages, or the system refuses its memory
// (engine.ErrMemory). From then on the newest stage takes
// every further key and the rate climbs as ModelFPR says.
//
// Add counts every call (Added); a key added twice fills its stage twice.
// TestAndAdd adds only keys that test absent, the dedup of an unbounded
// stream. Probes go to the stage with the most keys first, so members
// stop early; an absent key is probed in every stage. The batch forms
// hash once; when the stages share k (the usual case) one kernel builds
// each key's mask once and tests its line in several stages (an
// asm.BlockedSet, cut once per change of stages), first in the two
// stages that hold most keys, then in the others for the keys still
// absent, with the large stages' lines prefetched ahead. The single-key
// forms test one key's line in every stage without a branch on the
// answers, so all its lines are fetched together. Stages of different k
// are cut, in probe order, into runs of one k, each tested by one kernel
// in turn over the keys the runs before it left absent.
//
// A zero Scalable holds no key and tests every key absent; adding to it
// panics with a message naming NewScalable. Methods need exclusive use
// for writes; plain reads may run on many goroutines.
type Scalable struct {
	hint   uint64
	p, r   float64
	growth uint64
	seed   uint64
	key    uint64 // hashing.Uint64Key(seed)
	opts   []engine.Option

	stages    []*Filter
	caps      []uint64 // keys stage i holds before the next opens
	counts    []uint64 // keys added to stage i
	count     uint64
	saturated bool // no further stage can be built

	// probe is the stages in probe order (see reorder), rank the place of
	// the newest stage in it, and k the stages' common probe count (0 if
	// they differ).
	probe []*Filter
	sets  []asm.BlockedSet // the probe order cut as stageSets cuts it
	set   asm.BlockedSet   // every stage, for the single-key test (common k)
	rank  int
	k     uint32
}

type growth int
type tightening float64

// WithGrowth sets the factor s by which each stage of a Scalable holds
// more keys than the one before, from 2 (the default) to 1024.
func WithGrowth(s int) engine.Option { return config.FamilyOption(growth(s)) }

// WithTightening sets the ratio r in (0, 1) by which each stage's
// false-positive rate is below the one before (default 0.85).
func WithTightening(r float64) engine.Option { return config.FamilyOption(tightening(r)) }

const (
	defaultGrowth     = 2
	defaultTightening = 0.85
	maxGrowth         = 1024
)

func checkGrowth(s uint64, r float64) error {
	if s < 2 || s > maxGrowth {
		return errs.ParamErrorf("growth %d outside [2, %d]", s, maxGrowth)
	}
	if !(r > 0 && r < 1) {
		return errs.ParamErrorf("tightening ratio %v outside (0, 1)", r)
	}
	return nil
}

// NewScalable returns an empty scalable filter whose first stage holds
// hint keys and whose false-positive rate stays below p however many keys
// arrive. Options: WithGrowth, WithTightening, engine.WithSeed and
// engine.WithHugePages.
func NewScalable(hint uint64, p float64, opts ...engine.Option) (*Scalable, error) {
	s := &Scalable{hint: hint, p: p, growth: defaultGrowth, r: defaultTightening}
	c, shared, err := growOptions("blocked.Scalable", opts, func(v any) (bool, error) {
		switch v := v.(type) {
		case growth:
			if v < 2 || v > maxGrowth {
				return true, errs.ParamErrorf("growth %d outside [2, %d]", int(v), maxGrowth)
			}
			s.growth = uint64(v)
		case tightening:
			s.r = float64(v)
		default:
			return false, nil
		}
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	if err := errs.CheckNP(hint, p); err != nil {
		return nil, err
	}
	if err := checkGrowth(s.growth, s.r); err != nil {
		return nil, err
	}
	s.seed, s.key, s.opts = c.Seed, hashing.Uint64Key(c.Seed), shared
	if err := s.grow(); err != nil {
		return nil, err
	}
	return s, nil
}

// stageSpec returns the capacity, bits and probes of stage i.
func (s *Scalable) stageSpec(i int) (capacity, m uint64, k uint32, err error) {
	capacity = s.hint
	for range i {
		hi, lo := bits.Mul64(capacity, s.growth)
		if hi != 0 {
			return 0, 0, 0, errs.ParamErrorf("stage %d would hold more than 2^64 keys", i)
		}
		capacity = lo
	}
	pi := s.p * (1 - s.r) * math.Pow(s.r, float64(i))
	m, k, err = sizeFor(capacity, pi)
	if err != nil || k == stageK {
		return capacity, m, k, err
	}
	// k = 8 fills a line's words in one round: prefer it while it costs at
	// most stageKSlack more bits, so that the stages share one k and a
	// batch test builds each key's mask once for all of them.
	bpk := bitsPerKeyAtK(pi, stageK)
	if m8 := math.Ceil(float64(capacity)*bpk/LineBits) * LineBits; m8 <= float64(m)*(1+stageKSlack) && m8 <= engine.MaxBits {
		return capacity, uint64(m8), stageK, nil
	}
	return capacity, m, k, nil
}

// stageK is the probe count Scalable's stages prefer, and stageKSlack the
// fraction of extra bits they accept for it (at p = 1% and r = 0.85 the
// stages' optimal k is 9 to 11, and k = 8 costs 0.3% to 5% more bits).
const (
	stageK      = 8
	stageKSlack = 0.06
)

// bitsPerKeyAtK memoises bitsPerKeyFor.
func bitsPerKeyAtK(p float64, k uint32) float64 {
	type pk struct {
		p float64
		k uint32
	}
	if v, ok := bitsAtK.Load(pk{p, k}); ok {
		return v.(float64)
	}
	b := bitsPerKeyFor(p, k)
	bitsAtK.Store(pk{p, k}, b)
	return b
}

var bitsAtK sync.Map

// grow opens the next stage, or marks the filter saturated if it cannot.
func (s *Scalable) grow() error {
	if len(s.stages) >= maxStages {
		s.saturated = true
		return errs.ParamErrorf("%d stages", maxStages)
	}
	capacity, m, k, err := s.stageSpec(len(s.stages))
	var f *Filter
	if err == nil {
		f, err = NewMK(m, k, s.opts...)
	}
	if err != nil {
		s.saturated = true
		return err
	}
	s.stages = append(s.stages, f)
	s.caps = append(s.caps, capacity)
	s.counts = append(s.counts, 0)
	s.reorder()
	return nil
}

// reorder recomputes the probe order: the full stages newest first (they
// hold the most keys), with the newest stage placed where its count ranks,
// so that members stop early; and the common k.
func (s *Scalable) reorder() {
	s.probe = s.order(s.probe[:0])
	s.rank = slices.Index(s.probe, s.stages[len(s.stages)-1])
	s.k = s.stages[0].p.K
	s.set = asm.BlockedSet{}
	if sameK(s.probe) {
		s.set = newSet(s.probe)
	} else {
		s.k = 0
	}
	s.sets = stageSets(s.sets[:0], s.probe)
}

// active returns the stage new keys go to and how many more it takes
// before the next stage opens (all of them once saturated).
func (s *Scalable) active() (*Filter, uint64) {
	last := len(s.stages) - 1
	if last < 0 {
		batch.Zero("blocked.Scalable", "blocked.NewScalable")
	}
	if s.counts[last] >= s.caps[last] && !s.saturated && s.grow() == nil {
		last++
	}
	if s.saturated {
		return s.stages[last], math.MaxUint64
	}
	return s.stages[last], s.caps[last] - s.counts[last]
}

func (s *Scalable) added(c uint64) {
	last := len(s.counts) - 1
	s.counts[last] += c
	s.count += c
	if s.rank > 0 && s.counts[last] >= s.counts[slices.Index(s.stages, s.probe[s.rank-1])] {
		s.reorder()
	}
}

// order appends the stages in probe order to dst: the full stages newest
// first, with the newest stage placed where its count ranks.
func (s *Scalable) order(dst []*Filter) []*Filter {
	last := len(s.stages) - 1
	if last < 0 {
		return dst
	}
	c, placed := s.counts[last], false
	for j := last - 1; j >= 0; j-- {
		if !placed && c >= s.counts[j] {
			dst, placed = append(dst, s.stages[last]), true
		}
		dst = append(dst, s.stages[j])
	}
	if !placed {
		dst = append(dst, s.stages[last])
	}
	return dst
}

// Stages returns the number of stages.
func (s *Scalable) Stages() int { return len(s.stages) }

// Added returns the number of keys added (every Add call, and every
// TestAndAdd that added).
func (s *Scalable) Added() uint64 { return s.count }

// Seed returns the hash seed.
func (s *Scalable) Seed() uint64 { return s.seed }

// Growth returns the growth factor s.
func (s *Scalable) Growth() int { return int(s.growth) }

// Tightening returns the tightening ratio r.
func (s *Scalable) Tightening() float64 { return s.r }

// P returns the false-positive bound p.
func (s *Scalable) P() float64 { return s.p }

// M returns the bits of all stages.
func (s *Scalable) M() uint64 {
	var m uint64
	for _, f := range s.stages {
		m += f.M()
	}
	return m
}

// K returns the probes per key of the newest stage, the one Add writes to
// (stages opened later may take more, as their FPR targets tighten); 0
// for a zero Scalable.
func (s *Scalable) K() uint32 {
	if len(s.stages) == 0 {
		return 0
	}
	return s.stages[len(s.stages)-1].p.K
}

// SizeBytes returns the bytes of all stages' bit arrays.
func (s *Scalable) SizeBytes() uint64 { return s.M() / 8 }

// EstimatedCount sums the stages' estimates of their distinct keys.
func (s *Scalable) EstimatedCount() float64 {
	var n float64
	for _, f := range s.stages {
		n += f.EstimatedCount()
	}
	return n
}

// ModelFPR returns the model false-positive rate after n keys added to a
// new filter of these parameters: 1 - Π (1 - f_i) over the stages the n
// keys fill, with f_i the FPR model of stage i at its load. It is below
// P() until the stages saturate.
func (s *Scalable) ModelFPR(n uint64) float64 {
	if len(s.stages) == 0 {
		return 0
	}
	pass := 1.0
	for i := 0; n > 0 && i < maxStages; i++ {
		capacity, m, k, err := s.stageSpec(i)
		if i < len(s.stages) {
			capacity, m, k = s.caps[i], s.stages[i].M(), s.stages[i].p.K
		} else if err != nil {
			break
		}
		c := min(n, capacity)
		if _, _, _, err := s.stageSpec(i + 1); err != nil || i+1 == maxStages {
			c = n // no further stage: this one takes the rest
		}
		pass *= 1 - FPR(m, c, k)
		n -= c
	}
	return 1 - pass
}

// String describes the filter in one line.
func (s *Scalable) String() string {
	return fmt.Sprintf("blocked.Scalable{stages: %d, keys: %d, p: %g, growth: %d, tightening: %g, bytes: %d, seed: %d}",
		len(s.stages), s.count, s.p, s.growth, s.r, s.SizeBytes(), s.seed)
}

// Clone returns an independent copy.
func (s *Scalable) Clone() *Scalable {
	c := *s
	c.stages = make([]*Filter, len(s.stages))
	for i, f := range s.stages {
		c.stages[i] = f.Clone()
	}
	c.caps = append([]uint64(nil), s.caps...)
	c.counts = append([]uint64(nil), s.counts...)
	c.probe, c.sets = nil, nil // reorder appends to them: not into s's arrays
	if len(c.stages) > 0 {
		c.reorder()
	}
	c.opts = append([]engine.Option(nil), s.opts...)
	return &c
}

// Close releases the stages' huge-page arrays at once; the filter must
// not be used afterwards.
func (s *Scalable) Close() error {
	var first error
	for _, f := range s.stages {
		if err := f.Close(); err != nil && first == nil {
			first = err
		}
	}
	s.stages, s.caps, s.counts, s.probe, s.sets = nil, nil, nil, nil, nil
	s.set, s.k = asm.BlockedSet{}, 0
	return first
}

// AddHash adds a key given its hash engine.HashSeed(key, s.Seed()).
func (s *Scalable) AddHash(h uint64) {
	f, _ := s.active()
	f.AddHash(h)
	s.added(1)
}

// TestHash reports whether the key with hash h may have been added. With
// a common k the key's mask is built once and tested against its line in
// every stage.
func (s *Scalable) TestHash(h uint64) bool {
	var hit bool
	if s.k != 0 {
		hit = s.set.TestHash(h)
	} else {
		for _, set := range s.sets {
			if hit = set.TestHash(h); hit {
				break
			}
		}
	}
	runtime.KeepAlive(s)
	return hit
}

// TestAndAddHash adds the key with hash h unless it tests present, and
// reports whether it tested present.
func (s *Scalable) TestAndAddHash(h uint64) bool {
	if s.TestHash(h) {
		return true
	}
	s.AddHash(h)
	return false
}

// Add adds key.
func (s *Scalable) Add(key []byte) { s.AddHash(engine.HashSeed(key, s.seed)) }

// Test reports whether key may have been added; false is certain.
func (s *Scalable) Test(key []byte) bool { return s.TestHash(engine.HashSeed(key, s.seed)) }

// TestAndAdd adds key unless it tests present and reports whether it did:
// the dedup of an unbounded stream, false for a key seen the first time.
func (s *Scalable) TestAndAdd(key []byte) bool {
	return s.TestAndAddHash(engine.HashSeed(key, s.seed))
}

// AddString adds the bytes of str without copying them.
func (s *Scalable) AddString(str string) { s.AddHash(engine.HashStringSeed(str, s.seed)) }

// TestString is Test of the bytes of str.
func (s *Scalable) TestString(str string) bool {
	return s.TestHash(engine.HashStringSeed(str, s.seed))
}

// AddUint64 adds the 8 little-endian bytes of k.
func (s *Scalable) AddUint64(k uint64) { s.AddHash(hashing.HashUint64Keyed(k, s.key)) }

// TestUint64 is Test of the 8 little-endian bytes of k.
func (s *Scalable) TestUint64(k uint64) bool { return s.TestHash(hashing.HashUint64Keyed(k, s.key)) }

// TestAndAddUint64 is TestAndAdd of the 8 little-endian bytes of k.
func (s *Scalable) TestAndAddUint64(k uint64) bool {
	return s.TestAndAddHash(hashing.HashUint64Keyed(k, s.key))
}

// AddHashes adds every hash with the newest stage's batch kernel, opening
// stages as they fill.
func (s *Scalable) AddHashes(hs []uint64) {
	for len(hs) > 0 {
		f, room := s.active()
		c := min(uint64(len(hs)), room)
		f.AddHashes(hs[:c])
		s.added(c)
		hs = hs[c:]
	}
}

// AddUint64s adds the 8 little-endian bytes of every key, hashed in batch.
func (s *Scalable) AddUint64s(ks []uint64) {
	keyBatch{sc: s}.add(ks, nil, len(ks))
}

// AddKeys adds every key.
func (s *Scalable) AddKeys(keys [][]byte) {
	keyBatch{sc: s}.add(nil, keys, len(keys))
}

// TestHashes sets out[i] = TestHash(hs[i]) and returns the number of
// hits; out must be at least as long as hs.
func (s *Scalable) TestHashes(hs []uint64, out []bool) int {
	hits := testAnyHashes("blocked.Scalable", s.sets, hs, out)
	runtime.KeepAlive(s) // the sets hold the arrays, not their storage
	return hits
}

// TestUint64s sets out[i] to Test of the 8 little-endian bytes of ks[i]
// and returns the number of hits; the keys are hashed once, in batch.
func (s *Scalable) TestUint64s(ks []uint64, out []bool) int {
	return keyBatch{sc: s}.test(ks, nil, len(ks), out)
}

// TestKeys sets out[i] = Test(keys[i]) and returns the number of hits.
func (s *Scalable) TestKeys(keys [][]byte, out []bool) int {
	return keyBatch{sc: s}.test(nil, keys, len(keys), out)
}

var _ engine.Filter = (*Scalable)(nil)
