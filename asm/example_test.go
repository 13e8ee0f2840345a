package asm_test

import (
	"fmt"

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

// Forcing a lower kernel level, as the tests do to run every path in one
// process; FILTERENGINE_KERNEL does the same for a whole program.
func ExampleUseLevel() {
	restore, err := asm.UseLevel(asm.Generic)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer restore()
	fmt.Println(asm.Kernel())
	// Output: generic
}
