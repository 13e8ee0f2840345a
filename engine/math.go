package engine

import (
	"errors"
	"fmt"
	"math"
)

// MaxK is the largest number of probes any constructor accepts. Beyond it
// a filter is slower than a larger one with fewer probes at any useful p.
const MaxK = 64

// MaxBits is the largest bit array any constructor accepts (2^48 bits =
// 32 TiB); above it word counts and byte sizes risk overflow on the way.
const MaxBits = 1 << 48

// ErrParam is wrapped by every error a constructor returns for bad
// parameters.
var ErrParam = errors.New("filterengine: invalid parameter")

func paramErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrParam}, args...)...)
}

// ParamErrorf returns a parameter error wrapping ErrParam: the one helper
// every family uses for arguments it rejects.
func ParamErrorf(format string, args ...any) error { return paramErr(format, args...) }

// CheckNP validates a (keys, target false-positive rate) pair.
func CheckNP(n uint64, p float64) error {
	if n == 0 {
		return paramErr("n = 0 expected keys")
	}
	if !(p > 0 && p < 1) { // false for NaN too
		return paramErr("false-positive rate p = %v outside (0, 1)", p)
	}
	return nil
}

// CheckMK validates an explicit (bits, probes) pair against the caps.
func CheckMK(m uint64, k uint32, maxK uint32) error {
	if m == 0 {
		return paramErr("m = 0 bits")
	}
	if m > MaxBits {
		return paramErr("m = %d bits above the maximum %d", m, uint64(MaxBits))
	}
	if k == 0 {
		return paramErr("k = 0 probes")
	}
	if k > maxK {
		return paramErr("k = %d probes above the maximum %d", k, maxK)
	}
	return nil
}

// OptimalBitsFloat is m = -n ln p / (ln 2)^2, the array size that reaches p
// for n keys with the optimal k (seed 000, section on sizing).
func OptimalBitsFloat(n uint64, p float64) float64 {
	return -float64(n) * math.Log(p) / (math.Ln2 * math.Ln2)
}

// OptimalBits rounds OptimalBitsFloat up and reports parameters that are
// invalid or whose size overflows MaxBits.
func OptimalBits(n uint64, p float64) (uint64, error) {
	if err := CheckNP(n, p); err != nil {
		return 0, err
	}
	m := math.Ceil(OptimalBitsFloat(n, p))
	if m > MaxBits {
		return 0, paramErr("n = %d, p = %v needs %.3g bits, above the maximum %d", n, p, m, uint64(MaxBits))
	}
	return max(uint64(m), 1), nil
}

// OptimalKFloat is k = (m/n) ln 2, the probe count minimising the FPR of m
// bits holding n keys.
func OptimalKFloat(m, n uint64) float64 { return float64(m) / float64(n) * math.Ln2 }

// OptimalK rounds OptimalKFloat to the nearest integer in [1, MaxK].
func OptimalK(m, n uint64) uint32 {
	k := math.Round(OptimalKFloat(m, n))
	return uint32(min(max(k, 1), MaxK))
}

// FPR is the classic model (1 - (1 - 1/m)^(kn))^k of a standard Bloom
// filter with m bits, k probes and n distinct keys.
func FPR(m, n uint64, k uint32) float64 {
	if m == 0 {
		return 1
	}
	if n == 0 {
		return 0 // and not 0 * log1p(-1) = NaN at m = 1
	}
	zero := math.Exp(float64(k) * float64(n) * math.Log1p(-1/float64(m)))
	return math.Pow(1-zero, float64(k))
}

// FPRApprox is the usual approximation (1 - e^(-kn/m))^k of FPR.
func FPRApprox(m, n uint64, k uint32) float64 {
	return math.Pow(-math.Expm1(-float64(k)*float64(n)/float64(m)), float64(k))
}

// bitsPerKeyFPR is FPRApprox per key: (1 - e^(-k/b))^k for b bits per key.
func bitsPerKeyFPR(b float64, k int) float64 {
	return math.Pow(-math.Expm1(-float64(k)/b), float64(k))
}

// MaxBitsPerKey bounds BitsPerKeyAndK: 64 bits per key reach p ~ 1e-13.
const MaxBitsPerKey = 64

// BitsPerKeyAndK returns the smallest integer bits per key b for which some
// k reaches p, and the smallest such k. This is what ClickHouse's
// calculationBestPractices (seed 000) reads from a precomputed table of
// (1 - e^(-k/b))^k, computed here instead, so any p works.
func BitsPerKeyAndK(p float64) (bitsPerKey, k int, err error) {
	if !(p > 0 && p < 1) {
		return 0, 0, paramErr("false-positive rate p = %v outside (0, 1)", p)
	}
	for b := 1; b <= MaxBitsPerKey; b++ {
		for k := 1; k <= MaxK; k++ {
			if bitsPerKeyFPR(float64(b), k) <= p {
				return b, k, nil
			}
		}
	}
	return 0, 0, paramErr("p = %v needs more than %d bits per key", p, MaxBitsPerKey)
}

// LevelDBK is LevelDB's probe count for an integer bits-per-key budget:
// floor(0.69 * bitsPerKey) clamped to [1, 30] (seed 001, bloom.cc).
func LevelDBK(bitsPerKey int) int {
	return min(max(int(float64(bitsPerKey)*0.69), 1), 30)
}

// FPRFromFill is the a-posteriori false-positive rate of a filter whose
// fraction fill of bits is set: a non-member's k independent probes all
// land on set bits with probability fill^k.
func FPRFromFill(fill float64, k uint32) float64 { return math.Pow(fill, float64(k)) }

// EstimateCount estimates the number of distinct keys in m bits with k
// probes of which setBits are one (Swamidass & Baldi 2007):
// n ≈ -(m/k) ln(1 - X/m). A full array returns +Inf.
func EstimateCount(m uint64, k uint32, setBits uint64) float64 {
	if setBits >= m {
		return math.Inf(1)
	}
	return -float64(m) / float64(k) * math.Log1p(-float64(setBits)/float64(m))
}
