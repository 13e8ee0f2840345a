package blocked

import (
	"math"
	"sync"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/errs"
)

// narrowLogBits returns log2 of a narrow block size, or an error for a
// size other than 64 or 128.
func narrowLogBits(blockBits int) (uint, error) {
	switch blockBits {
	case 64:
		return 6, nil
	case 128:
		return 7, nil
	}
	return 0, errs.ParamErrorf("%d-bit blocks; want 64 or 128", blockBits)
}

// occupancy holds, for blocks of b bits and k probes per key, the exact
// false-positive rate of a block holding i keys, extended on demand: the
// distribution of the number of set bits after i*k independent uniform
// probes (dist[s] = P(s bits set)), and fpr[i] = sum over s of
// P(s set after i keys) * (s/b)^k, the chance a foreign key's k
// independent probes all find set bits.
type occupancy struct {
	mu   sync.Mutex
	b, k int
	dist []float64
	pow  []float64 // (s/b)^k
	fpr  []float64
}

func newOccupancy(b, k int) *occupancy {
	o := &occupancy{b: b, k: k, dist: make([]float64, b+1), pow: make([]float64, b+1)}
	o.dist[0] = 1
	for s := range o.pow {
		o.pow[s] = math.Pow(float64(s)/float64(b), float64(k))
	}
	o.fpr = []float64{0}
	return o
}

// at returns the rate of a block of i keys. Past 40 probes a bit, a bit
// stays clear with chance below e^-40 and the rate is 1 to double
// precision: the table stops growing there, so an overloaded filter's
// model costs no more than a full one's.
func (o *occupancy) at(i int) float64 {
	if i*o.k >= 40*o.b {
		return 1
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for len(o.fpr) <= i {
		for range o.k { // one probe: s stays with chance s/b, grows by one otherwise
			for s := o.b; s >= 0; s-- {
				stay := o.dist[s] * float64(s) / float64(o.b)
				if s > 0 {
					stay += o.dist[s-1] * float64(o.b-s+1) / float64(o.b)
				}
				o.dist[s] = stay
			}
		}
		var r float64
		for s, p := range o.dist {
			r += p * o.pow[s]
		}
		o.fpr = append(o.fpr, r)
	}
	return o.fpr[i]
}

type occupancyKey struct{ b, k int }

// occupancies memoises the tables by block size and k.
var occupancies sync.Map

func occupancyOf(b int, k uint32) *occupancy {
	key := occupancyKey{b, int(k)}
	if o, ok := occupancies.Load(key); ok {
		return o.(*occupancy)
	}
	o, _ := occupancies.LoadOrStore(key, newOccupancy(b, int(k)))
	return o.(*occupancy)
}

// NarrowFPR is the false-positive model of a narrow filter of m bits in
// blocks of blockBits (64 or 128) with k probes after n keys: block
// loads are Poisson with mean blockBits*n/m (as FPR, after Putze,
// Sanders and Singler 2007), and a block of i keys passes a foreign key
// with the exact chance of k independent uniform probes all landing on
// bits set by the i*k probes of its keys (the occupancy distribution,
// not its mean: at 128 bits the mean's rate is several percent low). It
// returns 1 for an invalid block size or fewer bits than one block.
func NarrowFPR(m, n uint64, k uint32, blockBits int) float64 {
	if _, err := narrowLogBits(blockBits); err != nil || m < uint64(blockBits) || k == 0 {
		return 1
	}
	if n == 0 {
		return 0
	}
	o := occupancyOf(blockBits, k)
	lambda := float64(n) / float64(m/uint64(blockBits))
	return poissonAverage(lambda, func(i float64) float64 { return o.at(int(i)) })
}

// narrowBitsPerKeyFor returns the bits per key at which k probes in
// blocks of b bits reach p by NarrowFPR's model, or +Inf.
func narrowBitsPerKeyFor(p float64, k uint32, b int) float64 {
	o := occupancyOf(b, k)
	rate := func(bpk float64) float64 {
		return poissonAverage(float64(b)/bpk, func(i float64) float64 { return o.at(int(i)) })
	}
	lo, hi := 0.5, float64(b)
	if rate(hi) > p {
		return math.Inf(1)
	}
	for hi-lo > 1e-4 {
		mid := (lo + hi) / 2
		if rate(mid) <= p {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

type narrowSizingKey struct {
	p float64
	b int
}

var narrowSizings sync.Map

// NarrowBitsPerKeyAndK returns the fewest bits per key with which blocks
// of blockBits (64 or 128) reach p by NarrowFPR's model, and the k that
// does it. 128-bit blocks: p = 1% takes k = 6 and 10.85 bits per key,
// p = 0.1% k = 8 and 19.01; 64-bit blocks: k = 5 and 12.14 bits at 1%,
// k = 7 and 24.00 at 0.1% (512-bit lines, BitsPerKeyAndK: 9.97 and
// 15.60). TestNarrowSizing pins these.
func NarrowBitsPerKeyAndK(p float64, blockBits int) (bitsPerKey float64, k uint32, err error) {
	if err := errs.CheckNP(1, p); err != nil {
		return 0, 0, err
	}
	if _, err := narrowLogBits(blockBits); err != nil {
		return 0, 0, err
	}
	key := narrowSizingKey{p, blockBits}
	if s, ok := narrowSizings.Load(key); ok {
		return s.(sizing).bitsPerKey, s.(sizing).k, nil
	}
	best, bestK := math.Inf(1), uint32(0)
	for k := uint32(1); k <= engine.MaxK; k++ {
		b := narrowBitsPerKeyFor(p, k, blockBits)
		if b < best {
			best, bestK = b, k
		} else if b > best*1.1 {
			break
		}
	}
	if bestK == 0 {
		return 0, 0, errs.ParamErrorf("p = %v is below what a %d-bit block per key reaches", p, blockBits)
	}
	narrowSizings.Store(key, sizing{best, bestK})
	return best, bestK, nil
}
