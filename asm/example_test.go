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

// Testing keys against three strided blocked filters (a blocked.Window's
// generations): a key added to any of them tests present, by the
// single-key probe and by the batch test.
func ExampleBlockedTestStrideHash() {
	const gens, lines, k = 3, 16, 6
	words := make([]uint64, gens*lines*8)
	asm.BlockedAddStrideHashes(words, gens, 1, k, []uint64{0xfeed}) // the middle filter
	out := make([]bool, 2)
	hits := asm.BlockedTestStrideHashes(words, gens, k, []uint64{0xfeed, 0xbeef}, out)
	fmt.Println(asm.BlockedTestStrideHash(words, gens, 0xfeed, k), out[0], hits)
	// Output: true true 1
}
