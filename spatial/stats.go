package spatial

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/internal/store"
)

// AreaStats are libSBF's per-area statistics; "a priori" figures come from
// the model (see model.go) for the filter's m, k and member counts, the
// others from the cells actually set.
type AreaStats struct {
	Area    int
	Members uint64 // keys inserted into the area
	// Cells is the number of cells holding this area's label.
	Cells uint64
	// SelfCollisions counts the area's probes that found the cell already
	// at this label. It is exact when areas are inserted in ascending
	// order (libSBF's rule); otherwise a probe that lands on a cell a
	// higher area already raised is not seen as one, so it is a lower
	// bound, and after Union it is the sum of both filters' counts.
	SelfCollisions uint64
	// ExpectedCells is m (z(N_{>i}) - z(N_{>=i})).
	ExpectedCells float64
	// Emersion is Cells / (k Members - SelfCollisions): the share of the
	// cells the area wrote that still show its label (NaN without members).
	Emersion float64
	// ExpectedEmersion is z(N_{>i}) = (1 - 1/m)^(k N_{>i}).
	ExpectedEmersion float64
	// FPR is the chance a key in no area checks as this area, from the
	// cells: (C_{>=i}/m)^k - (C_{>i}/m)^k with C the cells at or above;
	// in the line-local layout the mean over lines of the same with the
	// line's counts and c cells per line in place of m.
	FPR        float64
	FPRAPriori float64
	// ISEP is the inter-set error probability, the chance a key of this
	// area checks as a higher one: (1 - Emersion)^k a posteriori,
	// (1 - z(N_{>i}))^k a priori. In the line-local layout, a posteriori
	// it is the mean over lines of (C_{>i}/c)^k, C_{>i} the line's cells
	// above i of c (a member's line is independent of the higher keys'),
	// and a priori the line model's full(N_{>i}); libSBF's (1 -
	// Emersion)^k would understate it there, as lines fill unevenly.
	ISEP        float64
	ISEPAPriori float64
	// Safeness is the a-priori chance that no key of the area is
	// reported in a higher one: (1 - ISEPAPriori)^Members.
	Safeness float64
}

// Stats are the whole filter's statistics (libSBF's set).
type Stats struct {
	Cells      uint64
	CellBits   int // 4, 8 or 16
	K          uint32
	Areas      int
	Members    uint64
	Collisions uint64 // probes that found a non-empty cell
	NonZero    uint64 // cells holding a label
	// Sparsity is the share of empty cells, 1 - NonZero/Cells.
	Sparsity float64
	// FPR is the chance a key in no area checks as some area:
	// (NonZero/Cells)^k a posteriori, (1 - (1 - 1/m)^(k Members))^k a priori
	// (line-local: the mean over lines of (NonZero_line/c)^k, and the line
	// model's full(Members), see ModelFPR).
	FPR        float64
	FPRAPriori float64
	// Safeness is the product of the areas' safeness.
	Safeness float64
	// Area[i] describes area i+1.
	Area []AreaStats
}

// histogram counts the cells holding each label (index 0: empty cells).
func (f *Filter) histogram() []uint64 {
	hist := make([]uint64, f.areas+1)
	mask := f.mask
	per := uint64(32 >> f.p.CellLog) // cells per 32-bit word
	width := uint(1) << f.p.CellLog
	full := f.p.M / per
	for i := range full {
		v := store.LoadLE32(&f.p.Words[i])
		for range per {
			hist[v&mask]++
			v >>= width
		}
	}
	for p := full * per; p < f.p.M; p++ {
		hist[f.cell(p)]++
	}
	runtime.KeepAlive(f.storage)
	return hist
}

// Stats computes every statistic; it scans the cells once (O(m)).
func (f *Filter) Stats() Stats {
	f.mustHaveCells()
	hist := f.histogram()
	counts := make([]uint64, f.areas)
	for i := range counts {
		counts[i], _, _ = f.counts.area(i + 1)
	}
	fpr, model, safeness := apriori(f.layout(), counts)
	s := Stats{
		Cells: f.p.M, CellBits: f.CellBits(), K: f.p.K, Areas: f.areas,
		Collisions: f.counts.collisions(),
		FPRAPriori: fpr,
		Safeness:   safeness,
		Area:       make([]AreaStats, f.areas),
	}
	kf := float64(f.p.K)
	mf := float64(f.p.M)
	var atOrAbove uint64 // C_{>i} while walking down
	for i := f.areas; i >= 1; i-- {
		a := &s.Area[i-1]
		mo := model[i-1]
		a.Area = i
		a.Members = counts[i-1]
		a.Cells = hist[i]
		_, a.SelfCollisions, _ = f.counts.area(i)
		a.ExpectedCells = mo.expectedCells
		a.ExpectedEmersion = mo.expectedEmersion
		a.FPRAPriori = mo.fpr
		a.ISEPAPriori = mo.isep
		a.Safeness = mo.safeness
		above := math.Pow(float64(atOrAbove)/mf, kf)
		atOrAbove += hist[i]
		a.FPR = math.Pow(float64(atOrAbove)/mf, kf) - above
		a.Emersion = math.NaN()
		a.ISEP = math.NaN()
		if wrote := kf*float64(a.Members) - float64(a.SelfCollisions); wrote > 0 {
			a.Emersion = float64(a.Cells) / wrote
			a.ISEP = math.Pow(1-a.Emersion, kf)
		}
		s.Members += a.Members
	}
	s.NonZero = atOrAbove
	s.Sparsity = 1 - float64(s.NonZero)/mf
	s.FPR = math.Pow(float64(s.NonZero)/mf, kf)
	if f.p.Lines != 0 {
		// The line-local layout's a-posteriori FPRs and ISEPs come from
		// its lines (lineFPR); an ISEP stays NaN where the area wrote
		// nothing.
		fpr := f.lineFPR()
		s.FPR = fpr[0]
		above := 0.0 // the sum of fpr above area i
		for i := f.areas; i >= 1; i-- {
			a := &s.Area[i-1]
			a.FPR = fpr[i]
			if !math.IsNaN(a.ISEP) {
				a.ISEP = above
			}
			above += fpr[i]
		}
	}
	return s
}

// lineFPR returns the line-local layout's a-posteriori FPRs: index 0 the
// filter's, the mean over lines of (C/c)^k with C the line's non-empty
// cells of c; index i area i's, the mean of (C_{>=i}/c)^k - (C_{>i}/c)^k
// with C_{>=i} the line's cells at or above i.
func (f *Filter) lineFPR() []float64 {
	c := asm.SpatialLineCells(f.p.CellLog)
	pow := make([]float64, c+1) // pow[j] = (j/c)^k
	for j := range pow {
		pow[j] = math.Pow(float64(j)/float64(c), float64(f.p.K))
	}
	fpr := make([]float64, f.areas+1)
	labels := make([]uint32, 0, c)
	for line := range f.p.Lines {
		labels = labels[:0]
		for p := line * c; p < line*c+c; p++ {
			if v := f.cell(p); v != 0 {
				labels = append(labels, v)
			}
		}
		n := len(labels)
		fpr[0] += pow[n]
		slices.Sort(labels)
		for j := n - 1; j >= 0; { // labels[i+1..j] are one label, n-j-1 cells above it
			i := j
			for i >= 0 && labels[i] == labels[j] {
				i--
			}
			fpr[labels[j]] += pow[n-i-1] - pow[n-j-1]
			j = i
		}
	}
	for i := range fpr {
		fpr[i] /= float64(f.p.Lines)
	}
	runtime.KeepAlive(f.storage)
	return fpr
}

// WriteSummary writes the statistics as a readable report: the filter's
// figures, then one line per area.
func (s Stats) WriteSummary(w io.Writer) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "spatial Bloom filter: %d cells of %d bits, k = %d, %d areas\n", s.Cells, s.CellBits, s.K, s.Areas)
	fmt.Fprintf(b, "members %d, collisions %d, non-empty cells %d, sparsity %.6f\n", s.Members, s.Collisions, s.NonZero, s.Sparsity)
	fmt.Fprintf(b, "FPR %.6g (a priori %.6g), safeness %.6g\n", s.FPR, s.FPRAPriori, s.Safeness)
	fmt.Fprintf(b, "%6s %10s %10s %12s %10s %9s %9s %11s %11s %11s %11s %9s\n",
		"area", "members", "cells", "exp.cells", "self-coll", "emersion", "exp.emer", "fpr", "fpr.prior", "isep", "isep.prior", "safeness")
	for _, a := range s.Area {
		fmt.Fprintf(b, "%6d %10d %10d %12.1f %10d %9s %9.6f %11.4g %11.4g %11s %11.4g %9.6f\n",
			a.Area, a.Members, a.Cells, a.ExpectedCells, a.SelfCollisions, fmtRatio(a.Emersion, "%.6f"),
			a.ExpectedEmersion, a.FPR, a.FPRAPriori, fmtRatio(a.ISEP, "%.4g"), a.ISEPAPriori, a.Safeness)
	}
	return b.Flush()
}

func fmtRatio(v float64, format string) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf(format, v)
}

// String describes the filter in one line of at most 200 bytes; the
// table of its statistics is Stats().WriteSummary's.
func (f *Filter) String() string {
	layout := "libsbf"
	if f.p.Lines != 0 {
		layout = "line-local"
	}
	return fmt.Sprintf("spatial.Filter{cells: %d, k: %d, areas: %d, %d-bit, %s, %d bytes}", f.p.M, f.p.K, f.areas, f.CellBits(), layout, f.SizeBytes())
}
