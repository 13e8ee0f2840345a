package counting

import (
	"fmt"
	"math"

	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/engine"
)

// ModelFPR is the false-positive rate model of a counting filter of lines
// lines and k probes after n distinct keys. Its nonzero counters are
// exactly the set bits of the blocked filter of the same lines, k and
// seed, so this is blocked.FPR, the model of Putze, Sanders and Singler
// (2007): Poisson line loads, k bits of a 512-bit line.
func ModelFPR(n, lines uint64, k uint32) float64 {
	if n == 0 {
		return 0
	}
	return blocked.FPR(lines*CountersPerLine, n, k)
}

// maxLines keeps every filter within engine.MaxBits counters.
const maxLines = engine.MaxBits / CountersPerLine

// size returns the lines and probes blocked.New picks for n keys at p.
func size(n uint64, p float64) (lines uint64, k uint32, err error) {
	if err := engine.CheckNP(n, p); err != nil {
		return 0, 0, err
	}
	bpk, k, err := blocked.BitsPerKeyAndK(p)
	if err != nil {
		return 0, 0, err
	}
	l := math.Ceil(float64(n) * bpk / CountersPerLine)
	if l > maxLines {
		return 0, 0, fmt.Errorf("%w: n = %d, p = %v needs %.3g lines, above the maximum %d", engine.ErrParam, n, p, l, uint64(maxLines))
	}
	return uint64(l), k, nil
}
