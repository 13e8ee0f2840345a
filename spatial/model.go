package spatial

import (
	"cmp"
	"math"
	"slices"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/occupancy"
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
	occ   *occupancy.Table // E[(X_j/c)^k] by j, for the line-local layout
}

func (l layout) zero(n uint64) float64 {
	if l.lines == 0 {
		return zeroAfter(l.m, l.k, n)
	}
	y := zeroAfter(l.m/l.lines, l.k, 1)
	return math.Exp(float64(n) * math.Log1p(-(1-y)/float64(l.lines)))
}

// bound is (1 - zero(n))^k, full(n) of libSBF's layout and, by Jensen's
// inequality (E[Z^k] >= E[Z]^k with E[X_J/c] = 1 - zero(n)), a lower
// bound of the line-local full(n) in closed form.
func (l layout) bound(n uint64) float64 {
	return math.Pow(-math.Expm1(math.Log(l.zero(n))), float64(l.k))
}

// meanFull is the line-local full(n) with each line's rate at the mean
// of its occupancy, E[(1 - y^J)^k]: a lower bound of full(n) (Jensen's
// inequality within a line) within a few percent of it, with no
// occupancy table.
func (l layout) meanFull(n uint64) float64 {
	y := zeroAfter(l.m/l.lines, l.k, 1)
	return l.binomialAverage(n, func(j float64) float64 { return math.Pow(-math.Expm1(j*math.Log(y)), float64(l.k)) })
}

// full is in [0, 1] and nondecreasing in n, and takes bounded time for
// every n.
func (l layout) full(n uint64) float64 {
	if l.lines == 0 {
		return math.Pow(1-zeroAfter(l.m, l.k, n), float64(l.k))
	}
	if l.lines == 1 {
		return l.occ.At(float64(n))
	}
	return l.binomialAverage(n, l.occ.At)
}

// binomialAverage returns E[rate(J)] for the keys J ~ Binomial(n,
// 1/lines) of a line, rate nondecreasing in [0, 1] and 1 from the
// saturated load on: the weights go out from the mode by their ratios
// (the mode's taken as 1) until they fall below 1e-30 of it, within the
// mean +- 12 standard deviations (and 40 more), and the sum is divided
// by theirs, a weighted average in [0, 1]. If even the lowest load
// weighed is saturated the answer is 1, so the sum spans at most about
// 2000 loads, whatever n.
func (l layout) binomialAverage(n uint64, rate func(float64) float64) float64 {
	if n == 0 {
		return rate(0)
	}
	nf, q := float64(n), 1/float64(l.lines)
	mean := nf * q
	sd := math.Sqrt(mean * (1 - q))
	lo := math.Floor(max(0, mean-12*sd-40))
	hi := math.Floor(min(nf, mean+12*sd+40))
	if occupancy.Saturated(lo, int(l.m/l.lines), int(l.k)) {
		return 1 // every line the sum weighs is full
	}
	const negligible = 1e-30
	mode := math.Floor(min(nf, (nf+1)*q))
	odds := q / (1 - q)
	sum, weight := rate(mode), 1.0
	for j, w := mode, 1.0; j < hi && w >= negligible; j++ {
		w *= (nf - j) / (j + 1) * odds
		sum, weight = sum+w*rate(j+1), weight+w
	}
	for j, w := mode, 1.0; j > lo && w >= negligible; j-- {
		w *= j / (nf - j + 1) / odds
		sum, weight = sum+w*rate(j-1), weight+w
	}
	return min(sum/weight, 1)
}

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
// key in no area checks as some area, in [0, 1] and nondecreasing in n.
func (f *Filter) ModelFPR(n uint64) float64 {
	f.mustHaveCells()
	return f.layout().full(n)
}

func (f *Filter) layout() layout { return newLayout(f.p.M, f.p.K, f.p.Lines) }

func newLayout(m uint64, k uint32, lines uint64) layout {
	l := layout{m: m, k: k, lines: lines}
	if lines != 0 {
		l.occ = occupancy.Of(int(m/lines), int(k))
	}
	return l
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
// area FPRs. It bisects m for each k up to twice Size's k; the filter
// FPR decides most steps (at most p suffices, area 1's inter-set error
// above p rules out), and the per-area model, O(areas), the few between.
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
	layoutOf := func(units uint64, k uint32) layout {
		if unit != 0 {
			return newLayout(units*unit, k, units)
		}
		return newLayout(units, k, 0)
	}
	// Area 1's inter-set error is full(n - counts[0]), so it at most p
	// is necessary (meanFull, below full, rules out most line counts
	// without occupancy tables); every area's FPR and inter-set error is
	// at most full(n), so full(n) <= p suffices. Between the two the
	// per-area model decides.
	necessary := func(units uint64, k uint32) bool {
		l := layoutOf(units, k)
		return !(unit != 0 && l.meanFull(n-counts[0]) > p) && l.full(n-counts[0]) <= p
	}
	fits := func(units uint64, k uint32) bool {
		l := layoutOf(units, k)
		if l.full(n) <= p {
			return true
		}
		if !necessary(units, k) {
			return false
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
		lo := fewest(units, func(u uint64) bool { return necessary(u, kk) })
		hi := fewestFrom(lo, units, func(u uint64) bool { return fits(u, kk) })
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

// sizeLine is sizeForLineLocal for lines of c cells. For each k it first
// finds the fewest lines at which the lower bounds of full(n) reach p
// (bound(n) in closed form, then meanFull(n) from there up), as no fewer
// lines fit; then it visits the k in the order of those counts, finding
// the fewest lines at which full(n) reaches p from there up, and stops
// at the first k whose count is above the best found. So the occupancy
// tables are built for few k and only for loads near the answer.
func sizeLine(n uint64, p float64, c uint64) (m uint64, k uint32, err error) {
	m0, k0, err := sizeFor(n, p)
	if err != nil {
		return 0, 0, err
	}
	most := uint64(MaxCells) / c
	type candidate struct {
		k     uint32
		lines uint64 // the fewest lines whose bound reaches p
	}
	var cands []candidate
	for kk := uint32(1); kk <= min(2*k0+2, engine.MaxK); kk++ {
		bounded := func(lines uint64) bool { return newLayout(lines*c, kk, lines).bound(n) <= p }
		hi, ok := doubling(max((m0+c-1)/c, 1), most, bounded)
		if !ok {
			continue
		}
		lo := fewest(hi, bounded)
		near := func(lines uint64) bool { return newLayout(lines*c, kk, lines).meanFull(n) <= p }
		if hi, ok = doubling(lo, most, near); ok {
			cands = append(cands, candidate{kk, fewestFrom(lo, hi, near)})
		}
	}
	slices.SortStableFunc(cands, func(a, b candidate) int { return cmp.Compare(a.lines, b.lines) })
	best := uint64(0)
	for _, cd := range cands {
		if best != 0 && (cd.lines > best || cd.lines == best && cd.k > k) {
			break
		}
		fits := func(lines uint64) bool { return newLayout(lines*c, cd.k, lines).full(n) <= p }
		hi, ok := doubling(cd.lines, most, fits)
		if !ok {
			continue
		}
		lines := fewestFrom(cd.lines, hi, fits)
		if best == 0 || lines < best || lines == best && cd.k < k {
			best, k = lines, cd.k
		}
	}
	if best == 0 {
		return 0, 0, errs.ParamErrorf("n = %d, p = %v needs more than %d line-local cells", n, p, uint64(MaxCells))
	}
	return best * c, k, nil
}

// doubling returns the first of from, 2*from, 4*from, ... up to most
// (and most itself) for which fits holds, and whether there is one.
func doubling(from, most uint64, fits func(uint64) bool) (uint64, bool) {
	x := min(from, most)
	for !fits(x) {
		if x >= most {
			return 0, false
		}
		x = min(2*x, most)
	}
	return x, true
}

// fewest bisects for the least x in [1, hi] with fits(x), given fits(hi)
// and fits monotone.
func fewest(hi uint64, fits func(uint64) bool) uint64 { return fewestFrom(1, hi, fits) }

// fewestFrom is fewest over [lo, hi].
func fewestFrom(lo, hi uint64, fits func(uint64) bool) uint64 {
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
