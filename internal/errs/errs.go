// Package errs holds the sentinel errors every family wraps, the
// helpers that wrap them, and the parameter checks every constructor
// shares. engine re-exports the sentinels; families use the helpers.
package errs

import (
	"errors"
	"fmt"
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

// ErrFormat is wrapped by every decoding error.
var ErrFormat = errors.New("filterengine: invalid serialized filter")

// ErrMemory is wrapped by every error for an array the system refuses to
// provide: valid parameters whose memory this process cannot have now.
var ErrMemory = errors.New("filterengine: out of memory")

// MemoryErrorf returns an error wrapping ErrMemory and cause (an errno
// from mmap): the one helper for memory the system refused.
func MemoryErrorf(cause error, format string, args ...any) error {
	return fmt.Errorf("%w: "+format+": %w", append(append([]any{ErrMemory}, args...), cause)...)
}

// ParamErrorf returns a parameter error wrapping ErrParam: the one helper
// every family uses for arguments it rejects.
func ParamErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrParam}, args...)...)
}

// FormatErrorf returns a decoding error wrapping ErrFormat: the one helper
// every decoder uses for bytes it rejects.
func FormatErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
}

// CheckNP validates a (keys, target false-positive rate) pair.
func CheckNP(n uint64, p float64) error {
	if n == 0 {
		return ParamErrorf("n = 0 expected keys")
	}
	if !(p > 0 && p < 1) { // false for NaN too
		return ParamErrorf("false-positive rate p = %v outside (0, 1)", p)
	}
	return nil
}

// CheckMK validates an explicit (bits, probes) pair against the caps.
func CheckMK(m uint64, k uint32, maxK uint32) error {
	if m == 0 {
		return ParamErrorf("m = 0 bits")
	}
	if m > MaxBits {
		return ParamErrorf("m = %d bits above the maximum %d", m, uint64(MaxBits))
	}
	if k == 0 {
		return ParamErrorf("k = 0 probes")
	}
	if k > maxK {
		return ParamErrorf("k = %d probes above the maximum %d", k, maxK)
	}
	return nil
}
