package blocked

import (
	"math"
	"sync"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/poisson"
)

// LineBits is the size of a line, the unit every key touches.
const LineBits = 512

// log1p(-1/64): the log of the chance a word's bit escapes one probe.
var logMissWord = math.Log1p(-1.0 / 64)

// lineFPR is the false-positive rate of a line holding load keys: the
// query's k bits (k/8 per word on average) are each set with chance
// 1 - (1 - 1/64)^(load*k/8).
func lineFPR(load float64, k uint32) float64 {
	set := -math.Expm1(load * float64(k) / 8 * logMissWord)
	return math.Pow(set, float64(k))
}

// FPR is the model of Putze, Sanders and Singler ("Cache-, hash- and
// space-efficient Bloom filters", 2007) for this layout: line loads are
// Poisson with mean lambda = 512 n / m, and the false-positive rate is the
// Poisson average of the in-line rate lineFPR over those loads. m is in
// bits (a multiple of 512), n the keys added. It is in [0, 1],
// nondecreasing in n, for every input.
func FPR(m, n uint64, k uint32) float64 {
	if m < LineBits {
		return 1
	}
	lambda := float64(n) / float64(m/LineBits)
	return min(1, poissonAverage(lambda, func(i float64) float64 { return lineFPR(i, k) }))
}

// poissonAverage returns sum over i of Poisson(i; lambda) f(i)
// (poisson.Average).
func poissonAverage(lambda float64, f func(float64) float64) float64 {
	return poisson.Average(lambda, f)
}

// bitsPerKeyFor returns the bits per key at which k probes reach p by
// FPR's model (bisection), or +Inf if even a line per key does not.
func bitsPerKeyFor(p float64, k uint32) float64 {
	rate := func(b float64) float64 {
		return poissonAverage(LineBits/b, func(i float64) float64 { return lineFPR(i, k) })
	}
	lo, hi := 0.5, float64(LineBits)
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

type sizing struct {
	bitsPerKey float64
	k          uint32
}

// sizings memoises BitsPerKeyAndK (a scan of the model over every k) by p,
// since a program builds many filters for few targets.
var sizings sync.Map

// BitsPerKeyAndK returns the fewest bits per key with which this layout
// reaches p by the model, and the k that does it: at p = 1% k = 6 and
// 9.97 bits per key, at p = 0.1% k = 9 and 15.60 (a standard Bloom filter
// needs 9.59 and 14.38).
func BitsPerKeyAndK(p float64) (bitsPerKey float64, k uint32, err error) {
	if err := errs.CheckNP(1, p); err != nil {
		return 0, 0, err
	}
	if s, ok := sizings.Load(p); ok {
		return s.(sizing).bitsPerKey, s.(sizing).k, nil
	}
	best, bestK := math.Inf(1), uint32(0)
	for k := uint32(1); k <= engine.MaxK; k++ {
		b := bitsPerKeyFor(p, k)
		if b < best {
			best, bestK = b, k
		} else if b > best*1.1 {
			break // the bits needed grow again past the optimal k
		}
	}
	if bestK == 0 {
		return 0, 0, errs.ParamErrorf("p = %v is below what a 512-bit line per key reaches", p)
	}
	sizings.Store(p, sizing{best, bestK})
	return best, bestK, nil
}
