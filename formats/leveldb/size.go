package leveldb

import (
	"math/bits"

	"github.com/filterengine/filterengine/internal/errs"
)

// MaxBits bounds the bits of a filter either writer builds: n keys at
// bitsPerKey bits take n*bitsPerKey bits (rounded up to whole bytes or
// lines), at most 2^32 - 512, just under 512 MiB. A 32-bit hash reaches
// no further: goleveldb computes the size in 32 bits (it wraps, and its
// reader then divides by zero), C++ LevelDB never sets a bit past 2^32,
// and Pebble's line offsets wrap in 32 bits. Larger budgets have no sense
// in either format and are errors.
const MaxBits = 1<<32 - 512

// filterBits returns n*bitsPerKey, or an error wrapping engine.ErrParam
// when bitsPerKey is negative (goleveldb's and Pebble's probe counts are
// then platform-dependent) or the product exceeds MaxBits.
func filterBits(n, bitsPerKey int) (uint64, error) {
	if bitsPerKey < 0 {
		return 0, errs.ParamErrorf("leveldb: %d bits per key is negative", bitsPerKey)
	}
	hi, lo := bits.Mul64(uint64(n), uint64(bitsPerKey))
	if hi != 0 || lo > MaxBits {
		return 0, errs.ParamErrorf("leveldb: %d keys at %d bits per key exceed a filter's %d bits", n, bitsPerKey, uint64(MaxBits))
	}
	return lo, nil
}
