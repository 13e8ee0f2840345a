package blocked

import (
	"math"
	"sync"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/occupancy"
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

// NarrowFPR is the false-positive model of a narrow filter of m bits in
// blocks of blockBits (64 or 128) with k probes after n keys: block
// loads are Poisson with mean blockBits*n/m (as FPR, after Putze,
// Sanders and Singler 2007), and a block of i keys passes a foreign key
// with the exact chance of k independent uniform probes all landing on
// bits set by the i*k probes of its keys (the occupancy distribution,
// not its mean: at 128 bits the mean's rate is several percent low). It
// returns 1 for an invalid block size or fewer bits than one block, and
// is in [0, 1], nondecreasing in n, for every input.
func NarrowFPR(m, n uint64, k uint32, blockBits int) float64 {
	if _, err := narrowLogBits(blockBits); err != nil || m < uint64(blockBits) || k == 0 {
		return 1
	}
	if n == 0 {
		return 0
	}
	o := occupancy.Of(blockBits, int(k))
	lambda := float64(n) / float64(m/uint64(blockBits))
	return poissonAverage(lambda, o.At)
}

// narrowBitsPerKeyFor returns the bits per key at which k probes in
// blocks of b bits reach p by NarrowFPR's model, or +Inf.
func narrowBitsPerKeyFor(p float64, k uint32, b int) float64 {
	o := occupancy.Of(b, int(k))
	rate := func(bpk float64) float64 {
		return poissonAverage(float64(b)/bpk, o.At)
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
