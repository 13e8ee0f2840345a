package spatial

import (
	"fmt"
	"math"

	"github.com/filterengine/filterengine/engine"
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

// aprioriArea holds the model's figures for one area.
type aprioriArea struct {
	fpr, expectedCells, expectedEmersion, isep, safeness float64
}

// apriori evaluates the model; counts[i] is the number of keys of area
// i+1. It returns the filter FPR, the per-area figures and the filter
// safeness.
func apriori(m uint64, k uint32, counts []uint64) (fpr float64, areas []aprioriArea, safeness float64) {
	areas = make([]aprioriArea, len(counts))
	fpr, safeness = aprioriInto(m, k, counts, areas)
	return fpr, areas, safeness
}

func aprioriInto(m uint64, k uint32, counts []uint64, areas []aprioriArea) (fpr, safeness float64) {
	kf := float64(k)
	var above uint64 // N_{>i}
	safeness = 1
	for i := len(counts) - 1; i >= 0; i-- {
		zAbove := zeroAfter(m, k, above)
		zFrom := zeroAfter(m, k, above+counts[i])
		isep := math.Pow(1-zAbove, kf)
		areas[i] = aprioriArea{
			fpr:              math.Pow(1-zFrom, kf) - isep,
			expectedCells:    float64(m) * (zAbove - zFrom),
			expectedEmersion: zAbove,
			isep:             isep,
			safeness:         math.Pow(1-isep, float64(counts[i])),
		}
		safeness *= areas[i].safeness
		above += counts[i]
	}
	return math.Pow(1-zeroAfter(m, k, above), kf), safeness
}

// Size returns cells and probes for n keys with an a-priori filter FPR of
// at most p: the classic sizing m = -n ln p / (ln 2)^2, k = (m/n) ln 2,
// grown until the exact model (1 - (1 - 1/m)^(kn))^k reaches p.
func Size(n uint64, p float64) (m uint64, k uint32, err error) {
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
		return 0, 0, fmt.Errorf("%w: n = %d, p = %v needs %d cells, above the maximum %d", engine.ErrParam, n, p, m, uint64(MaxCells))
	}
	return m, k, nil
}

// SizeAreas returns the fewest cells m, and a k for them, such that for
// every area i (counts[i] keys in area i+1) both the a-priori FPR of the
// area (a key in no area reported as area i) and its a-priori inter-set
// error (a key of area i reported in a higher area) are at most p. This
// needs fewer cells than Size(sum counts, p), which bounds the sum of the
// area FPRs. It bisects m for each k up to twice Size's k, evaluating the
// model (O(areas) per step).
func SizeAreas(counts []uint64, p float64) (m uint64, k uint32, err error) {
	if len(counts) < 1 || len(counts) > MaxAreas {
		return 0, 0, fmt.Errorf("%w: %d areas outside [1, %d]", engine.ErrParam, len(counts), MaxAreas)
	}
	var n uint64
	for _, c := range counts {
		if n+c < n {
			return 0, 0, fmt.Errorf("%w: key counts overflow", engine.ErrParam)
		}
		n += c
	}
	mHi, kHi, err := Size(n, p)
	if err != nil {
		return 0, 0, err
	}
	areas := make([]aprioriArea, len(counts))
	fits := func(m uint64, k uint32) bool {
		aprioriInto(m, k, counts, areas)
		for _, a := range areas {
			if !(a.fpr <= p && a.isep <= p) {
				return false
			}
		}
		return true
	}
	m, k = mHi, kHi
	for kk := uint32(1); kk <= min(2*kHi+2, engine.MaxK); kk++ {
		if !fits(m, kk) {
			continue
		}
		lo, hi := uint64(1), m // fits(hi, kk) holds
		for lo < hi {
			mid := lo + (hi-lo)/2
			if fits(mid, kk) {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		if hi < m || hi == m && kk < k {
			m, k = hi, kk
		}
	}
	return m, k, nil
}
