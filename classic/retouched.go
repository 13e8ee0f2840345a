package classic

import (
	"fmt"
	"math/bits"
	"runtime"
	"slices"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/batch"
)

// Clearing names a selective-clearing scheme of the retouched Bloom filter
// (Donnet, Baynat & Friedman, CoNEXT 2006): which of a false positive's k
// bits SelectiveClearing resets.
type Clearing uint8

const (
	// ClearRandom resets one of the key's k bits chosen uniformly at
	// random (deterministic for a given seed).
	ClearRandom Clearing = iota
	// ClearMinimumFN resets the bit shared by the fewest added keys that
	// still test present, so the fewest keys become false negatives.
	ClearMinimumFN
	// ClearMaximumFP resets the bit shared by the most recorded false
	// positives that still test present, so the most of them go at once.
	ClearMaximumFP
	// ClearRatio resets the bit with the smallest ratio of live added keys
	// to live recorded false positives: few false negatives for many false
	// positives removed.
	ClearRatio
)

func (c Clearing) String() string {
	switch c {
	case ClearRandom:
		return "Random"
	case ClearMinimumFN:
		return "MinimumFN"
	case ClearMaximumFP:
		return "MaximumFP"
	case ClearRatio:
		return "Ratio"
	}
	return fmt.Sprintf("Clearing(%d)", uint8(c))
}

// Clearings lists every scheme, in the order of the constants.
var Clearings = []Clearing{ClearRandom, ClearMinimumFN, ClearMaximumFP, ClearRatio}

// Retouched is a retouched Bloom filter (Donnet, Baynat & Friedman,
// "Retouched Bloom Filters: Allowing Networked Applications to Trade Off
// Selected False Positives Against False Negatives", CoNEXT 2006), with
// the operations of Hadoop's RetouchedBloomFilter: a classic filter that
// also remembers its added keys and the false positives the caller
// records, so that SelectiveClearing can reset one bit of a known false
// positive, chosen by a Clearing scheme.
//
// THIS FILTER CAN LOSE KEYS. Clearing a bit makes every added key that
// probes that bit test absent: a false negative. It happens only when the
// caller calls SelectiveClearing, never otherwise; FalseNegatives counts
// exactly the distinct added keys that test absent, and Add of a lost key
// makes it present again. Without SelectiveClearing a Retouched filter
// answers exactly as the classic Filter of the same m, k and seed.
//
// What selective clearing needs, and its memory: the bits (m/8 bytes, as
// New(n, p)); the 64-bit hash of every added key and of every recorded
// false positive (8 bytes each, kept and serialized); and, built on the
// first SelectiveClearing after keys were added, an index from each bit to
// the keys and false positives probing it: 8(m+1) bytes of offsets and 8k
// bytes per key and per false positive, plus a bit per key and per false
// positive for "tests absent". At p = 1% (m = 9.59 bits and k = 7 per key)
// that is 1.2 + 8 + 76.7 + 56 = 142 bytes per key and 64 per false
// positive (SizeBytes counts them); Hadoop keeps a list per bit of
// references to the key objects.
// A live count (keys or false positives probing a bit that still test
// present) is a scan of that bit's short list, kn/m = ln 2 entries on
// average. Rebuilding the index costs O(m + k(keys + false positives)),
// so SelectiveClearing is cheap in a run of clearings and pays one rebuild
// after each run of Adds.
//
// Keys are identified by their 64-bit hash: a key added twice counts once.
// Like Hadoop, the filter trusts the caller that a recorded false
// positive was never added; clearing a member's bit is allowed and counted.
//
// Concurrency: Test and its forms are safe from many goroutines; every
// other method needs exclusive use (FalseNegatives and
// RemovedFalsePositives only read).
type Retouched struct {
	f    *Filter
	keys []uint64 // hashes of added keys, deduplicated when the index is built
	fps  []uint64 // hashes of recorded false positives, likewise
	rng  uint64   // splitmix64 state for ClearRandom

	// The index, valid when !dirty.
	dirty  bool
	off    []uint64 // bit i's entries are ent[off[i]:off[i+1]]
	ent    []uint64 // key id, or fpTag|false-positive id
	lost   []uint64 // bit per key: tests absent
	gone   []uint64 // bit per false positive: tests absent
	fn     uint64   // keys with their lost bit set
	fpGone uint64   // false positives with their gone bit set
}

const fpTag = 1 << 63

// NewRetouched returns a retouched filter sized for n keys at
// false-positive rate p (m and k as New(n, p)).
func NewRetouched(n uint64, p float64, opts ...engine.Option) (*Retouched, error) {
	f, err := New(n, p, opts...)
	if err != nil {
		return nil, err
	}
	return newRetouched(f), nil
}

// NewRetouchedMK returns a retouched filter of exactly m bits and k probes.
func NewRetouchedMK(m uint64, k uint32, opts ...engine.Option) (*Retouched, error) {
	f, err := NewMK(m, k, opts...)
	if err != nil {
		return nil, err
	}
	return newRetouched(f), nil
}

func newRetouched(f *Filter) *Retouched {
	return &Retouched{f: f, rng: f.seed ^ 0x5265746f75636865, dirty: true}
}

func (r *Retouched) mustInit() {
	if r.f == nil {
		zeroRetouched()
	}
}

// zeroRetouched is the panic of a write to a zero Retouched, out of line
// so that mustInit costs its callers little inlining budget.
//
//go:noinline
func zeroRetouched() { batch.Zero("classic.Retouched", "classic.NewRetouched") }

// M returns the number of bits.
func (r *Retouched) M() uint64 {
	if r.f == nil {
		return 0
	}
	return r.f.m
}

// K returns the number of probes per key.
func (r *Retouched) K() uint32 {
	if r.f == nil {
		return 0
	}
	return r.f.k
}

// Seed returns the hash seed.
func (r *Retouched) Seed() uint64 {
	if r.f == nil {
		return 0
	}
	return r.f.seed
}

// SizeBytes returns the bytes held: the bits, the key and false-positive
// hashes, and the clearing index when built (every slot the slices hold,
// used or not, all 8 bytes wide).
func (r *Retouched) SizeBytes() uint64 {
	if r.f == nil {
		return 0
	}
	return r.f.SizeBytes() + 8*uint64(cap(r.keys)+cap(r.fps)+cap(r.lost)+cap(r.gone)+cap(r.off)+cap(r.ent))
}

// Filter returns the classic filter holding the bits (shared, not a copy):
// a retouched filter ships to readers as a plain classic filter.
func (r *Retouched) Filter() *Filter { return r.f }

// EstimatedCount estimates the distinct keys from the set bits.
func (r *Retouched) EstimatedCount() float64 {
	if r.f == nil {
		return 0
	}
	return r.f.EstimatedCount()
}

// ModelFPR is the classic model after n keys, before any clearing; each
// clearing lowers the false-positive rate below it.
func (r *Retouched) ModelFPR(n uint64) float64 {
	if r.f == nil {
		return 0
	}
	return engine.FPR(r.f.m, n, r.f.k)
}

// String describes r in one line.
func (r *Retouched) String() string {
	if r.f == nil {
		return "classic.Retouched{zero}"
	}
	return fmt.Sprintf("classic.Retouched{m: %d, k: %d, keys: %d, false positives: %d, false negatives: %d, seed: %d}",
		r.f.m, r.f.k, len(r.keys), len(r.fps), r.FalseNegatives(), r.f.seed)
}

// Close returns the bits' huge-page memory at once and drops the kept
// hashes and index. r must not be used afterwards.
func (r *Retouched) Close() error {
	if r.f == nil {
		return nil
	}
	err := r.f.Close()
	*r = Retouched{}
	return err
}

// Clone returns an independent copy of r.
func (r *Retouched) Clone() *Retouched {
	if r.f == nil {
		return &Retouched{}
	}
	return &Retouched{f: r.f.Clone(), keys: slices.Clone(r.keys), fps: slices.Clone(r.fps), rng: r.rng, dirty: true}
}

// Add inserts key and remembers it.
func (r *Retouched) Add(key []byte) { r.AddHash(engine.HashSeed(key, r.Seed())) }

// AddString inserts the bytes of s.
func (r *Retouched) AddString(s string) { r.AddHash(engine.HashStringSeed(s, r.Seed())) }

// AddUint64 inserts the 8 little-endian bytes of k.
func (r *Retouched) AddUint64(k uint64) { r.AddHash(engine.HashUint64Seed(k, r.Seed())) }

// AddHash inserts a key by its hash and remembers it.
func (r *Retouched) AddHash(h uint64) {
	r.mustInit()
	r.f.AddHash(h)
	r.keys = append(r.keys, h)
	r.dirty = true
}

// AddHashes inserts every hash of hs.
func (r *Retouched) AddHashes(hs []uint64) {
	r.mustInit()
	r.f.AddHashes(hs)
	r.keys = append(r.keys, hs...)
	r.dirty = true
}

// AddKeys inserts every key.
func (r *Retouched) AddKeys(keys [][]byte) {
	batch.AddKeys(r.AddHashes, keys, r.Seed())
}

// AddUint64s inserts the 8 little-endian bytes of every key.
func (r *Retouched) AddUint64s(ks []uint64) {
	batch.AddUint64s(r.AddHashes, ks, r.Seed())
}

// Test reports whether key may be in the set. False means it was never
// added, or it was added and then lost to SelectiveClearing.
func (r *Retouched) Test(key []byte) bool { return r.TestHash(engine.HashSeed(key, r.Seed())) }

// TestString is Test of the bytes of s.
func (r *Retouched) TestString(s string) bool {
	return r.TestHash(engine.HashStringSeed(s, r.Seed()))
}

// TestUint64 is Test of the 8 little-endian bytes of k.
func (r *Retouched) TestUint64(k uint64) bool {
	return r.TestHash(engine.HashUint64Seed(k, r.Seed()))
}

// TestHash is Test of a hashed key.
func (r *Retouched) TestHash(h uint64) bool { return r.f != nil && r.f.TestHash(h) }

// TestHashes sets out[i] to TestHash(hs[i]) and returns how many are true.
func (r *Retouched) TestHashes(hs []uint64, out []bool) int {
	out = batch.Out("classic", out, len(hs))
	if r.f == nil {
		clear(out)
		return 0
	}
	return r.f.TestHashes(hs, out)
}

// TestKeys sets out[i] to Test(keys[i]) and returns how many are true.
func (r *Retouched) TestKeys(keys [][]byte, out []bool) int {
	out = batch.Out("classic", out, len(keys))
	if r.f == nil {
		clear(out)
		return 0
	}
	return r.f.TestKeys(keys, out)
}

// TestUint64s sets out[i] to Test of the 8 little-endian bytes of ks[i].
func (r *Retouched) TestUint64s(ks []uint64, out []bool) int {
	out = batch.Out("classic", out, len(ks))
	if r.f == nil {
		clear(out)
		return 0
	}
	return r.f.TestUint64s(ks, out)
}

// TestAndAdd reports whether key tested present, and adds it (a key is
// always remembered, so a later clearing that loses it is counted).
func (r *Retouched) TestAndAdd(key []byte) bool {
	return r.TestAndAddHash(engine.HashSeed(key, r.Seed()))
}

// TestAndAddHash is TestAndAdd of a hashed key.
func (r *Retouched) TestAndAddHash(h uint64) bool {
	present := r.TestHash(h)
	r.AddHash(h)
	return present
}

// AddFalsePositive records key as a known false positive: a key that tests
// present but was never added. The schemes ClearMaximumFP and ClearRatio
// weigh bits by the recorded false positives still present.
func (r *Retouched) AddFalsePositive(key []byte) {
	r.AddFalsePositiveHash(engine.HashSeed(key, r.Seed()))
}

// AddFalsePositiveHash records a false positive by its hash.
func (r *Retouched) AddFalsePositiveHash(h uint64) {
	r.mustInit()
	r.fps = append(r.fps, h)
	r.dirty = true
}

// AddFalsePositiveHashes records every hash of hs as a false positive.
func (r *Retouched) AddFalsePositiveHashes(hs []uint64) {
	r.mustInit()
	r.fps = append(r.fps, hs...)
	r.dirty = true
}

// SelectiveClearing resets one of key's k bits, chosen by scheme, so that
// key tests absent afterwards, and reports whether it cleared a bit (false
// when key already tests absent, and for an unknown scheme).
//
// IT CAN MAKE ADDED KEYS TEST ABSENT: every added key that probes the
// cleared bit becomes a false negative, counted by FalseNegatives. Use it
// only where a false negative is acceptable.
func (r *Retouched) SelectiveClearing(key []byte, scheme Clearing) bool {
	return r.SelectiveClearingHash(engine.HashSeed(key, r.Seed()), scheme)
}

// SelectiveClearingHash is SelectiveClearing of a hashed key.
func (r *Retouched) SelectiveClearingHash(h uint64, scheme Clearing) bool {
	if scheme > ClearRatio || !r.TestHash(h) {
		return false
	}
	r.index()
	var pos [engine.MaxK]uint64
	p := newProbe(h, r.f.m)
	for i := range r.f.k {
		pos[i] = p.next()
	}
	ps := pos[:r.f.k]
	var at uint64
	switch scheme {
	case ClearRandom:
		at = ps[r.random(uint64(len(ps)))]
	default:
		at = r.choose(ps, scheme)
	}
	r.clearBit(at)
	return true
}

// choose picks the position of ps the scheme prefers; ties go, under
// ClearMinimumFN, to the one with more live false positives, under the
// other schemes to the one with fewer live keys, then to the earlier
// probe.
func (r *Retouched) choose(ps []uint64, scheme Clearing) uint64 {
	bk, bf := r.live(ps[0])
	best := ps[0]
	for _, at := range ps[1:] {
		k, f := r.live(at)
		var better bool
		switch scheme {
		case ClearMinimumFN:
			better = k < bk || (k == bk && f > bf)
		case ClearMaximumFP:
			better = f > bf || (f == bf && k < bk)
		case ClearRatio:
			// k/f < bk/bf, with x/0 = +Inf for x > 0 and 0/0 = 0.
			better = ratioLess(k, f, bk, bf) || (!ratioLess(bk, bf, k, f) && k < bk)
		}
		if better {
			best, bk, bf = at, k, f
		}
	}
	return best
}

// ratioLess reports k1/f1 < k2/f2 for live-key and live-false-positive
// counts, where a bit with no false positive has ratio +Inf unless it has
// no key either (ratio 0: clearing it costs nothing).
func ratioLess(k1, f1, k2, f2 uint64) bool {
	inf1, inf2 := f1 == 0 && k1 > 0, f2 == 0 && k2 > 0
	switch {
	case inf1:
		return false
	case inf2:
		return true
	case f1 == 0 || f2 == 0: // one ratio is 0/0 = 0
		return f1 == 0 && k2 > 0
	}
	return k1*f2 < k2*f1
}

// live counts the keys and the false positives probing bit at that still
// test present, in one scan of its entries.
func (r *Retouched) live(at uint64) (keys, fps uint64) {
	for _, e := range r.ent[r.off[at]:r.off[at+1]] {
		if e&fpTag != 0 {
			if !testBit(r.gone, e&^fpTag) {
				fps++
			}
		} else if !testBit(r.lost, e) {
			keys++
		}
	}
	return keys, fps
}

// clearBit resets bit at and marks the keys and false positives probing
// it absent.
func (r *Retouched) clearBit(at uint64) {
	w := r.f.st.Words()
	w[at/64] &^= 1 << (at % 64)
	runtime.KeepAlive(r.f.st)
	for _, e := range r.ent[r.off[at]:r.off[at+1]] {
		if e&fpTag != 0 {
			if setBit(r.gone, e&^fpTag) {
				r.fpGone++
			}
		} else if setBit(r.lost, e) {
			r.fn++
		}
	}
}

func testBit(b []uint64, i uint64) bool { return b[i/64]&(1<<(i%64)) != 0 }

// setBit sets bit i and reports whether it was clear.
func setBit(b []uint64, i uint64) bool {
	was := b[i/64] & (1 << (i % 64))
	b[i/64] |= 1 << (i % 64)
	return was == 0
}

// random returns a uniform value in [0, n) from a splitmix64 stream.
func (r *Retouched) random(n uint64) uint64 {
	r.rng += 0x9e3779b97f4a7c15
	z := r.rng
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	hi, _ := bits.Mul64(z^z>>31, n)
	return hi
}

// FalseNegatives returns the number of distinct added keys that test
// absent: exactly the keys SelectiveClearing has lost (and not added
// again). It is O(1) after SelectiveClearing and O(k·keys) after Adds.
func (r *Retouched) FalseNegatives() uint64 {
	if r.f == nil {
		return 0
	}
	if !r.dirty {
		return r.fn
	}
	return r.countAbsent(r.keys)
}

// RemovedFalsePositives returns the number of distinct recorded false
// positives that test absent.
func (r *Retouched) RemovedFalsePositives() uint64 {
	if r.f == nil {
		return 0
	}
	if !r.dirty {
		return r.fpGone
	}
	return r.countAbsent(r.fps)
}

// countAbsent counts the distinct hashes of hs that test absent.
func (r *Retouched) countAbsent(hs []uint64) uint64 {
	var absent []uint64
	for _, h := range hs {
		if !r.f.TestHash(h) {
			absent = append(absent, h)
		}
	}
	slices.Sort(absent)
	return uint64(len(slices.Compact(absent)))
}

// index builds the bit-to-keys index after Adds or recorded false
// positives: deduplicates the hashes, counting-sorts the (bit, id) pairs
// and marks which keys and false positives test absent.
func (r *Retouched) index() {
	if !r.dirty {
		return
	}
	slices.Sort(r.keys)
	r.keys = slices.Compact(r.keys)
	slices.Sort(r.fps)
	r.fps = slices.Compact(r.fps)
	m, k := r.f.m, uint64(r.f.k)
	r.off = resize(r.off, m+1)
	clear(r.off)
	for _, set := range [][]uint64{r.keys, r.fps} {
		for _, h := range set {
			p := newProbe(h, m)
			for range k {
				r.off[p.next()+1]++
			}
		}
	}
	for i := uint64(1); i <= m; i++ {
		r.off[i] += r.off[i-1]
	}
	r.ent = resize(r.ent, k*uint64(len(r.keys)+len(r.fps)))
	r.lost = resize(r.lost, uint64(len(r.keys)+63)/64)
	r.gone = resize(r.gone, uint64(len(r.fps)+63)/64)
	clear(r.lost)
	clear(r.gone)
	r.fn, r.fpGone = 0, 0
	w := r.f.st.Words()
	for s, set := range [][]uint64{r.keys, r.fps} {
		for id, h := range set {
			e := uint64(id)
			if s == 1 {
				e |= fpTag
			}
			p := newProbe(h, m)
			present := true
			for range k {
				i := p.next()
				r.ent[r.off[i]] = e // off[i] runs from bit i's start to its end
				r.off[i]++
				present = present && w[i/64]&(1<<(i%64)) != 0
			}
			if !present {
				if s == 0 {
					setBit(r.lost, uint64(id))
					r.fn++
				} else {
					setBit(r.gone, uint64(id))
					r.fpGone++
				}
			}
		}
	}
	runtime.KeepAlive(r.f.st)
	copy(r.off[1:], r.off[:m]) // shift the ends back to starts
	r.off[0] = 0
	r.dirty = false
}

func resize[T any](s []T, n uint64) []T {
	if uint64(cap(s)) >= n {
		return s[:n]
	}
	return make([]T, n)
}
