package counting

import (
	"math"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/errs"
)

// modelFPR is the false-positive rate model of a counting filter of lines
// lines of counterBits-bit counters (4 or 8) and k probes after n
// distinct keys. Its nonzero counters are exactly the set bits of the
// blocked.Narrow filter of 128-bit (4-bit counters) or 64-bit blocks of
// the same lines, k and seed, so this is blocked.NarrowFPR: in [0, 1],
// nondecreasing in n.
func modelFPR(n, lines uint64, k uint32, counterBits int) float64 {
	wide := counterBits == 8
	return blocked.NarrowFPR(lines*lineCounters(wide), n, k, int(lineCounters(wide)))
}

// maxLines keeps every filter within engine.MaxBits counters.
func maxLines(wide bool) uint64 { return engine.MaxBits >> asm.CountingLogBits(wide) }

// size returns the lines and probes blocked.NewNarrow picks for n keys at
// p in blocks of one line's counters.
func size(n uint64, p float64, wide bool) (lines uint64, k uint32, err error) {
	if err := errs.CheckNP(n, p); err != nil {
		return 0, 0, err
	}
	per := lineCounters(wide)
	bpk, k, err := blocked.NarrowBitsPerKeyAndK(p, int(per))
	if err != nil {
		return 0, 0, err
	}
	l := math.Ceil(float64(n) * bpk / float64(per))
	if l > float64(maxLines(wide)) {
		return 0, 0, errs.ParamErrorf("n = %d, p = %v needs %.3g lines, above the maximum %d", n, p, l, maxLines(wide))
	}
	return uint64(l), k, nil
}
