package asm

import "github.com/filterengine/filterengine/internal/cpulevel"

// level is the kernel level in use. The dispatchers branch on it once per
// batch and the single-key kernels' assembly reads it directly; the test
// kit switches it through internal/cpulevel, to which init binds it.
var level = cpulevel.Start()

func init() { cpulevel.Bind(&level) }

// The levels under short names for the dispatchers.
const (
	generic = cpulevel.Generic
	avx2    = cpulevel.AVX2
	avx512  = cpulevel.AVX512
)

// Kernel names the kernel level in use: "generic", "avx2" or "avx512".
func Kernel() string { return level.String() }

// Available lists the kernel levels this CPU and build can run, lowest
// first, spelled as FILTERENGINE_KERNEL takes them.
func Available() []string {
	ls := cpulevel.Available()
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.String()
	}
	return out
}
