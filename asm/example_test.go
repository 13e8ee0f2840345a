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

// The straight k = 6 test of a counting line: a key's six 4-bit
// counters, the slices of g = h*BlockedMul, are all nonzero exactly when
// the two CountingMiss3 words have a clear top bit.
func ExampleCountingMiss3() {
	words := make([]uint64, 4*asm.CountingLineWords) // 4 lines of 128 counters
	h := engine.HashUint64(7)
	ln := asm.CountingLine(words, h, 4)
	g := h * asm.BlockedMul
	present := func() bool { return (asm.CountingMiss3(ln, g)|asm.CountingMiss3(ln, g<<21))>>63 == 0 }
	fmt.Println(present())
	pos := asm.NarrowPositions(h, 6, 7)
	for _, q := range pos[:6] { // add the key: counter q is nibble q of the line
		ln[q>>4] += 1 << (4 * (q & 15))
	}
	fmt.Println(present())
	// Output:
	// false
	// true
}
