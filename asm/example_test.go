package asm_test

import (
	"fmt"
	"slices"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
)

// Hashing integer keys in batch: the kernel the machine has (AVX-512,
// AVX2 or the generic reference) gives the same hashes as
// engine.HashUint64Seed one key at a time.
func ExampleHashUint64s() {
	ks := []uint64{1, 2, 3, 1 << 40}
	dst := make([]uint64, len(ks))
	asm.HashUint64s(dst, ks, 42)
	same := true
	for i, k := range ks {
		same = same && dst[i] == engine.HashUint64Seed(k, 42)
	}
	fmt.Println(same)
	// Output: true
}

// The kernel in use is one of the levels this CPU and build can run, and
// the generic Go kernels are always among them: FILTERENGINE_KERNEL=generic
// (or -tags purego) selects them, and every level answers alike.
func ExampleKernel() {
	levels := asm.Available()
	fmt.Println(levels[0], slices.Contains(levels, asm.Kernel()))
	// Output: generic true
}
