package shifting

import (
	"math"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/errs"
)

// zeroFraction is the probability p' = (1 - 1/m)^(kn) that a given bit is
// still zero after n keys have each set k bits, for m >= 1 (with no probe
// every bit is zero, even the one bit of m = 1).
func zeroFraction(m, n uint64, k uint32) float64 {
	if n == 0 || k == 0 {
		return 1
	}
	return math.Exp(float64(k) * float64(n) * math.Log1p(-1/float64(m)))
}

// fpr is the paper's false-positive model of ShBF_M (Yang et al. 2016,
// section 3.3) for m bits, n distinct keys and k bits per key (k/2 pairs):
//
//	f = (1 - p')^(k/2) · (1 - p' + p'^2/(w̄ - 1))^(k/2),  p' = (1 - 1/m)^(kn)
//
// The first factor is the chance that the k/2 bits h_i are set, the second
// that their partners at h_i + o are set too; the p'^2/(w̄-1) term is the
// positive correlation from keys that share both a position and the
// offset. For w̄ = 57 it is within 1% of the classic (1 - p')^k. It is 1
// for m = 0, and in [0, 1] and nondecreasing in n for every input.
func fpr(m, n uint64, k uint32) float64 {
	if m == 0 {
		return 1
	}
	z := zeroFraction(m, n, k)
	half := float64(k / 2)
	return math.Pow(1-z, half) * math.Pow(1-z+z*z/(wBar-1), half)
}

// fprSecondArray is fpr with the second array of m2 bits, where
// every key also sets one bit: a non-member must in addition hit a set
// bit there, probability 1 - (1 - 1/m2)^n. Like fpr, it is 1 for m2 = 0.
func fprSecondArray(m, m2, n uint64, k uint32) float64 {
	if m2 == 0 {
		return 1
	}
	if n == 0 { // no key set a bit of the second array
		return 0
	}
	return fpr(m, n, k) * -math.Expm1(float64(n)*math.Log1p(-1/float64(m2)))
}

// sizeFor returns the smallest m, and the even k reaching it, for which the
// model (fpr, or fprSecondArray with m2 = m when second is set) of n keys
// is at most p.
func sizeFor(n uint64, p float64, second bool) (m uint64, k uint32, err error) {
	if err := errs.CheckNP(n, p); err != nil {
		return 0, 0, err
	}
	model := func(m uint64, k uint32) float64 {
		if second {
			return fprSecondArray(m, m, n, k)
		}
		return fpr(m, n, k)
	}
	for kk := uint32(2); kk <= engine.MaxK; kk += 2 {
		if model(engine.MaxBits, kk) > p {
			continue
		}
		lo, hi := uint64(1), uint64(engine.MaxBits)
		for lo < hi { // smallest m in [lo, hi] with model <= p
			mid := lo + (hi-lo)/2
			if model(mid, kk) <= p {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		if m == 0 || lo < m {
			m, k = lo, kk
		}
	}
	if m == 0 {
		return 0, 0, paramErr(n, p)
	}
	return m, k, nil
}
