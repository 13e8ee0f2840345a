package engine

import (
	"math"

	"github.com/filterengine/filterengine/internal/errs"
)

// MaxK is the largest number of probes any constructor accepts. Beyond it
// a filter is slower than a larger one with fewer probes at any useful p.
const MaxK = errs.MaxK

// MaxBits is the largest bit array any constructor accepts (2^48 bits =
// 32 TiB); above it word counts and byte sizes risk overflow on the way.
const MaxBits = errs.MaxBits

// ErrParam is wrapped by every error a constructor returns for bad
// parameters: zero keys, a rate outside (0, 1) or NaN, a size above
// MaxBits, a k above MaxK, an option the family does not know.
var ErrParam = errs.ErrParam

// ErrFormat is wrapped by every error a decoder returns for bytes it
// rejects: truncated, corrupted, of another family or of an unknown
// format version.
var ErrFormat = errs.ErrFormat

// ErrMemory is wrapped by every error for memory the system refuses: a
// constructor, decoder, Open, View or growth step whose array cannot be
// had returns it instead of ending the process (see the package doc's
// Memory). A Clone whose copy cannot be had panics with it.
var ErrMemory = errs.ErrMemory

// OptimalBitsFloat is m = -n ln p / (ln 2)^2, the array size that reaches p
// for n keys with the optimal k (Bloom 1970; the standard sizing, as in
// Broder and Mitzenmacher's survey "Network Applications of Bloom Filters").
func OptimalBitsFloat(n uint64, p float64) float64 {
	return -float64(n) * math.Log(p) / (math.Ln2 * math.Ln2)
}

// OptimalBits rounds OptimalBitsFloat up and reports parameters that are
// invalid or whose size overflows MaxBits.
func OptimalBits(n uint64, p float64) (uint64, error) {
	if err := errs.CheckNP(n, p); err != nil {
		return 0, err
	}
	m := math.Ceil(OptimalBitsFloat(n, p))
	if m > MaxBits {
		return 0, errs.ParamErrorf("n = %d, p = %v needs %.3g bits, above the maximum %d", n, p, m, uint64(MaxBits))
	}
	return max(uint64(m), 1), nil
}

// OptimalK is k = (m/n) ln 2, the probe count minimising the FPR of m bits
// holding n keys, rounded to the nearest integer in [1, MaxK]: 1 for m = 0,
// MaxK for n = 0 < m.
func OptimalK(m, n uint64) uint32 {
	if m == 0 {
		return 1
	}
	if n == 0 {
		return MaxK
	}
	k := math.Round(float64(m) / float64(n) * math.Ln2)
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
