package counting

import (
	"fmt"
	"math"

	"github.com/filterengine/filterengine/engine"
)

// occupancyFPR returns g[j] for j = 0..jmax: the probability that a
// non-member's k cells (uniform with replacement over a line of b cells)
// are all nonzero when j keys, each setting k such cells, share its line.
// It is exact: it walks the distribution of the number s of occupied cells
// after each of the j*k throws and averages (s/b)^k. Averaging the fill
// first and raising it to the k-th power (the textbook formula) is
// optimistic by about 6% at 128 cells, k = 8, 13 keys per line.
func occupancyFPR(b, k uint32, jmax uint64) []float64 {
	g := make([]float64, jmax+1)
	dist := make([]float64, b+1)
	next := make([]float64, b+1)
	dist[0] = 1
	pow := make([]float64, b+1)
	for s := range pow {
		pow[s] = math.Pow(float64(s)/float64(b), float64(k))
	}
	fb := float64(b)
	for j := uint64(0); ; j++ {
		var e float64
		for s, p := range dist {
			e += p * pow[s]
		}
		g[j] = e
		if j == jmax {
			return g
		}
		for range k {
			next[0] = 0
			for s := uint32(1); s <= b; s++ {
				next[s] = dist[s]*float64(s)/fb + dist[s-1]*float64(b-s+1)/fb
			}
			dist, next = next, dist
		}
	}
}

// lineLoad calls visit(j, P(j of n keys land in a given one of lines
// lines)) for every j the distribution puts mass on beyond 1e-15 or so:
// Binomial(n, 1/lines), Poisson(n/lines) once n is large enough for the
// two to agree to double precision in this range.
func lineLoad(n, lines uint64, visit func(j uint64, p float64)) {
	if lines == 1 {
		visit(n, 1)
		return
	}
	mean := float64(n) / float64(lines)
	sd := math.Sqrt(mean)
	lo := uint64(max(0, math.Floor(mean-12*sd-8)))
	hi := min(n, uint64(math.Ceil(mean+12*sd+12)))
	if n <= 1<<20 {
		q := 1 / float64(lines)
		lnN, _ := math.Lgamma(float64(n) + 1)
		for j := lo; j <= hi; j++ {
			a, _ := math.Lgamma(float64(j) + 1)
			b, _ := math.Lgamma(float64(n-j) + 1)
			visit(j, math.Exp(lnN-a-b+float64(j)*math.Log(q)+float64(n-j)*math.Log1p(-q)))
		}
		return
	}
	for j := lo; j <= hi; j++ {
		a, _ := math.Lgamma(float64(j) + 1)
		visit(j, math.Exp(float64(j)*math.Log(mean)-mean-a))
	}
}

// loadBound is the largest line load lineLoad visits for n keys in lines
// lines.
func loadBound(n, lines uint64) uint64 {
	if lines == 1 {
		return n
	}
	mean := float64(n) / float64(lines)
	return min(n, uint64(math.Ceil(mean+12*math.Sqrt(mean)+12)))
}

// modelFPR is the false-positive rate of lines lines of b cells holding n
// distinct keys of k cells each, given g from occupancyFPR. Load beyond g
// counts as a certain false positive, so the result never understates.
func modelFPR(n, lines uint64, g []float64) float64 {
	var fpr, mass float64
	lineLoad(n, lines, func(j uint64, p float64) {
		mass += p
		if j < uint64(len(g)) {
			fpr += p * g[j]
		} else {
			fpr += p
		}
	})
	return min(1, fpr+max(0, 1-mass))
}

// ModelFPR is the false-positive rate model of a counting filter (and of
// its Bloom twin) with the given lines, probes and counter width after n
// distinct keys: the line's load is Binomial(n, 1/lines) and, given j keys
// in the line, the exact occupancy probability that k uniform cells of the
// line are all nonzero.
func ModelFPR(n, lines uint64, k uint32, counterBits int) float64 {
	if n == 0 {
		return 0
	}
	if lines == 0 || k == 0 {
		return 1
	}
	b := cellsPerLine(counterBits == 8)
	return modelFPR(n, lines, occupancyFPR(b, k, loadBound(n, lines)))
}

// maxLines keeps every filter within engine.MaxBits of counters.
const maxLines = engine.MaxBits / 512

// size returns the fewest lines, and for them the fewest probes, that keep
// the model at or below p for n keys.
func size(n uint64, p float64, b uint32) (lines uint64, k uint32, err error) {
	if err := engine.CheckNP(n, p); err != nil {
		return 0, 0, err
	}
	// A blocked filter never beats the classic one of as many cells, so
	// half the classic optimum bounds the lines from below.
	loadCap := 2*float64(b)*math.Ln2*math.Ln2/(-math.Log(p)) + 1
	lo := max(1, uint64(float64(n)/loadCap))
	best, bestK := uint64(0), uint32(0)
	for k := uint32(1); k <= engine.MaxK; k++ {
		if bestK != 0 && k > bestK+4 {
			break
		}
		hi := uint64(maxLines)
		if best != 0 {
			hi = best
		}
		g := occupancyFPR(b, k, loadBound(n, lo))
		if modelFPR(n, hi, g) > p {
			continue
		}
		l, h := lo, hi // invariant: FPR(h) <= p
		for l < h {
			mid := l + (h-l)/2
			if modelFPR(n, mid, g) <= p {
				h = mid
			} else {
				l = mid + 1
			}
		}
		if best == 0 || h < best {
			best, bestK = h, k
		}
	}
	if best == 0 {
		return 0, 0, fmt.Errorf("%w: n = %d, p = %v needs more than %d lines", engine.ErrParam, n, p, uint64(maxLines))
	}
	return best, bestK, nil
}
