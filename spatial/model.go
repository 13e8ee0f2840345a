package spatial

import (
	"math"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/errs"
)

// The a-priori model (Calderoni, Palmieri, Maio, IEEE TIFS 2018) for m
// cells, k probes and n_j keys in area j: a cell stays below area i after
// the N_{>=i} = sum_{j>=i} n_j keys of areas >= i with probability
// z(N) = (1 - 1/m)^(kN), so
//
//	filter FPR            (1 - z(N_{>=1}))^k
//	FPR of area i         (1 - z(N_{>=i}))^k - (1 - z(N_{>i}))^k
//	expected cells of i   m (z(N_{>i}) - z(N_{>=i}))
//	expected emersion     z(N_{>i})
//	inter-set error of i  (1 - z(N_{>i}))^k
//	safeness of i         (1 - isep_i)^(n_i); of the filter, the product.

// zeroAfter returns (1 - 1/m)^(k*keys), the chance a given cell is missed
// by keys keys of k probes each.
func zeroAfter(m uint64, k uint32, keys uint64) float64 {
	if keys == 0 {
		return 1
	}
	return math.Exp(float64(k) * float64(keys) * math.Log1p(-1/float64(m)))
}

// layout is the model's view of a filter: m cells, k probes, and for the
// line-local layout lines lines of c = m/lines cells (0: libSBF's
// layout). The model needs two functions of a key count N: zero(N), the
// chance a given probe's cell is missed by N other keys, and full(N),
// the chance all k probes of a key find cells set by N other keys. In
// libSBF's layout they are z(N) and (1 - z(N))^k. In the line-local
// layout the keys sharing a line are J ~ Binomial(N, 1/lines) and each
// probe falls on one of the c cells uniformly, with replacement, so with
// y = (1 - 1/c)^k and X_j the cells j keys set in a line
//
//	zero(N) = E[y^J]            = (1 - (1 - y)/lines)^N
//	full(N) = E[(X_J / c)^k]    (the occupancy distribution of X_j,
//	                             summed over J)
//
// and every formula of the TIFS model above holds with z(N) -> zero(N)
// and (1 - z(N))^k -> full(N): a key's line is drawn independently of
// the others', so for a key of area i the keys of higher areas in its
// line are again Binomial(N_{>i}, 1/lines). Unlike libSBF's m, a line's
// c is too small for X_j/c to sit at its mean: E[(X/c)^k] exceeds
// (E[X]/c)^k = (1 - y^j)^k by about 5% at p = 1%.
type layout struct {
	m     uint64
	k     uint32
	lines uint64
	occ   *[]float64 // occ[j] = E[(X_j/c)^k], grown on demand
}

func (l layout) zero(n uint64) float64 {
	if l.lines == 0 {
		return zeroAfter(l.m, l.k, n)
	}
	y := zeroAfter(l.m/l.lines, l.k, 1)
	return math.Exp(float64(n) * math.Log1p(-(1-y)/float64(l.lines)))
}

func (l layout) full(n uint64) float64 {
	kf := float64(l.k)
	if l.lines == 0 {
		return math.Pow(1-zeroAfter(l.m, l.k, n), kf)
	}
	if n == 0 {
		return 0
	}
	if l.lines == 1 {
		return l.occupied(n)
	}
	// Sum the binomial over mean +- 12 standard deviations (and 40
	// more): the terms outside weigh below 1e-30.
	nf, q := float64(n), 1/float64(l.lines)
	mean := nf * q
	sd := math.Sqrt(mean * (1 - q))
	lo := uint64(max(0, mean-12*sd-40))
	hi := min(n, uint64(mean+12*sd+40))
	if l.saturated(lo) {
		return 1 // every line the sum weighs is full, to occFull
	}
	lgN, _ := math.Lgamma(nf + 1)
	lq, lnq := math.Log(q), math.Log1p(-q)
	var sum float64
	for j := lo; j <= hi; j++ {
		jf := float64(j)
		a, _ := math.Lgamma(jf + 1)
		b, _ := math.Lgamma(nf - jf + 1)
		sum += math.Exp(lgN-a-b+jf*lq+(nf-jf)*lnq) * l.occupied(j)
	}
	return sum
}

// occupied returns E[(X_j/c)^k] for j keys of k probes in a line of c
// cells, from the occupancy distribution (balls into c bins), extending
// the table l.occ up to j.
func (l layout) occupied(j uint64) float64 {
	t := *l.occ
	if j < uint64(len(t)) {
		return t[j]
	}
	if len(t) > 0 && t[len(t)-1] >= occFull {
		return t[len(t)-1] // the table stopped where the lines are full
	}
	c := int(l.m / l.lines)
	kf := float64(l.k)
	pow := make([]float64, c+1)
	for x := range pow {
		pow[x] = math.Pow(float64(x)/float64(c), kf)
	}
	// dist[x] = P(x cells set) after the probes of len(t) - 1 keys;
	// replayed from the start, as the table is short and rarely grown.
	dist := make([]float64, c+1)
	dist[0] = 1
	t = t[:0]
	for keys := uint64(0); ; keys++ {
		var e float64
		for x, px := range dist {
			e += px * pow[x]
		}
		t = append(t, e)
		if keys >= 2*j || e >= occFull {
			break // as far as asked, or as far as the value moves
		}
		for range l.k {
			for x := c; x >= 1; x-- {
				dist[x] = dist[x]*float64(x)/float64(c) + dist[x-1]*float64(c-x+1)/float64(c)
			}
			dist[0] = 0
		}
	}
	*l.occ = t
	return t[min(j, uint64(len(t)-1))]
}

// occFull is where occupied stops growing its table: from there on a
// line's keys fill it to within 1e-15, whatever their number, so a
// forged member count of 2^40 costs no 2^41-entry table.
const occFull = 1 - 1e-15

// saturated reports whether lines of j keys are full to occFull.
func (l layout) saturated(j uint64) bool { return l.occupied(j) >= occFull }

// aprioriArea holds the model's figures for one area.
type aprioriArea struct {
	fpr, expectedCells, expectedEmersion, isep, safeness float64
}

// apriori evaluates the model; counts[i] is the number of keys of area
// i+1. It returns the filter FPR, the per-area figures and the filter
// safeness.
func apriori(l layout, counts []uint64) (fpr float64, areas []aprioriArea, safeness float64) {
	areas = make([]aprioriArea, len(counts))
	fpr, safeness = aprioriInto(l, counts, areas)
	return fpr, areas, safeness
}

func aprioriInto(l layout, counts []uint64, areas []aprioriArea) (fpr, safeness float64) {
	var above uint64 // N_{>i}
	safeness = 1
	fullAbove := 0.0
	for i := len(counts) - 1; i >= 0; i-- {
		zAbove := l.zero(above)
		zFrom := l.zero(above + counts[i])
		fullFrom := l.full(above + counts[i])
		areas[i] = aprioriArea{
			fpr:              fullFrom - fullAbove,
			expectedCells:    float64(l.m) * (zAbove - zFrom),
			expectedEmersion: zAbove,
			isep:             fullAbove,
			safeness:         math.Pow(1-fullAbove, float64(counts[i])),
		}
		safeness *= areas[i].safeness
		above += counts[i]
		fullAbove = fullFrom
	}
	return fullAbove, safeness
}

// ModelFPR is the model's filter FPR after n insertions: the chance a
// key in no area checks as some area.
func (f *Filter) ModelFPR(n uint64) float64 {
	f.mustHaveCells()
	return f.layout().full(n)
}

func (f *Filter) layout() layout { return newLayout(f.p.M, f.p.K, f.p.Lines) }

func newLayout(m uint64, k uint32, lines uint64) layout {
	return layout{m: m, k: k, lines: lines, occ: new([]float64)}
}

// sizeFor returns cells and probes for n keys with an a-priori filter FPR of
// at most p: the classic sizing m = -n ln p / (ln 2)^2, k = (m/n) ln 2,
// grown until the exact model (1 - (1 - 1/m)^(kn))^k reaches p.
func sizeFor(n uint64, p float64) (m uint64, k uint32, err error) {
	m, err = engine.OptimalBits(n, p)
	if err != nil {
		return 0, 0, err
	}
	for {
		k = engine.OptimalK(m, n)
		if engine.FPR(m, n, k) <= p {
			break
		}
		m += max(m/256, 1)
	}
	if m > MaxCells {
		return 0, 0, errs.ParamErrorf("n = %d, p = %v needs %d cells, above the maximum %d", n, p, m, uint64(MaxCells))
	}
	return m, k, nil
}

// sizeForAreas returns the fewest cells m, and a k for them, such that for
// every area i (counts[i] keys in area i+1) both the a-priori FPR of the
// area (a key in no area reported as area i) and its a-priori inter-set
// error (a key of area i reported in a higher area) are at most p. This
// needs fewer cells than sizeFor(sum counts, p), which bounds the sum of the
// area FPRs. It bisects m for each k up to twice Size's k, evaluating the
// model (O(areas) per step).
func sizeForAreas(counts []uint64, p float64) (m uint64, k uint32, err error) {
	return sizeAreas(counts, p, 0)
}

// sizeForAreasLineLocal is sizeForAreas for the line-local layout of a filter
// over len(counts) areas (WithLineLocal): m is a whole number of lines.
func sizeForAreasLineLocal(counts []uint64, p float64) (m uint64, k uint32, err error) {
	return sizeAreas(counts, p, asm.SpatialLineCells(cellLogFor(len(counts))))
}

// sizeAreas bisects m in steps of unit cells: 0 for libSBF's layout, the
// cells of a line for the line-local one.
func sizeAreas(counts []uint64, p float64, unit uint64) (m uint64, k uint32, err error) {
	if len(counts) < 1 || len(counts) > MaxAreas {
		return 0, 0, errs.ParamErrorf("%d areas outside [1, %d]", len(counts), MaxAreas)
	}
	var n uint64
	for _, c := range counts {
		if n+c < n {
			return 0, 0, errs.ParamErrorf("key counts overflow")
		}
		n += c
	}
	size := sizeFor
	if unit != 0 {
		size = func(n uint64, p float64) (uint64, uint32, error) { return sizeLine(n, p, unit) }
	}
	mHi, kHi, err := size(n, p)
	if err != nil {
		return 0, 0, err
	}
	areas := make([]aprioriArea, len(counts))
	fits := func(units uint64, k uint32) bool {
		l := newLayout(units, k, 0)
		if unit != 0 {
			l = newLayout(units*unit, k, units)
		}
		aprioriInto(l, counts, areas)
		for _, a := range areas {
			if !(a.fpr <= p && a.isep <= p) {
				return false
			}
		}
		return true
	}
	units, k := mHi, kHi
	if unit != 0 {
		units = mHi / unit
	}
	for kk := uint32(1); kk <= min(2*kHi+2, engine.MaxK); kk++ {
		if !fits(units, kk) {
			continue
		}
		hi := fewest(units, func(u uint64) bool { return fits(u, kk) })
		if hi < units || hi == units && kk < k {
			units, k = hi, kk
		}
	}
	return units * max(unit, 1), k, nil
}

// sizeForLineLocal returns cells and probes for n keys over the given
// number of areas in the line-local layout (WithLineLocal) with an
// a-priori filter FPR of at most p: the fewest whole lines, over every k,
// for which the line model's full(n) is at most p.
func sizeForLineLocal(n uint64, areas int, p float64) (m uint64, k uint32, err error) {
	if areas < 1 || areas > MaxAreas {
		return 0, 0, errs.ParamErrorf("%d areas outside [1, %d]", areas, MaxAreas)
	}
	return sizeLine(n, p, asm.SpatialLineCells(cellLogFor(areas)))
}

// sizeLine is sizeForLineLocal for lines of c cells.
func sizeLine(n uint64, p float64, c uint64) (m uint64, k uint32, err error) {
	m0, k0, err := sizeFor(n, p)
	if err != nil {
		return 0, 0, err
	}
	fits := func(lines uint64, k uint32) bool { return newLayout(lines*c, k, lines).full(n) <= p }
	best := uint64(0)
	for kk := uint32(1); kk <= min(2*k0+2, engine.MaxK); kk++ {
		hi := (m0 + c - 1) / c
		for !fits(hi, kk) {
			if hi > MaxCells/c/2 {
				break
			}
			hi *= 2
		}
		if !fits(hi, kk) {
			continue
		}
		hi = fewest(hi, func(l uint64) bool { return fits(l, kk) })
		if best == 0 || hi < best {
			best, k = hi, kk
		}
	}
	if best == 0 || best*c > MaxCells {
		return 0, 0, errs.ParamErrorf("n = %d, p = %v needs more than %d line-local cells", n, p, uint64(MaxCells))
	}
	return best * c, k, nil
}

// fewest bisects for the least x in [1, hi] with fits(x), given fits(hi)
// and fits monotone.
func fewest(hi uint64, fits func(uint64) bool) uint64 {
	lo := uint64(1)
	for lo < hi {
		mid := lo + (hi-lo)/2
		if fits(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return hi
}
