package asm_test

import (
	"fmt"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
)

// A single-key probe for k <= 8 built from its pieces, as blocked.Filter's
// Test runs it: the key's line, its round value and window row, and one
// frameless call for the round. It answers what BlockedTestHash does.
func ExampleBlockedRoundHas() {
	const k = 6
	words := make([]uint64, 8*100) // 100 lines
	h := engine.Hash([]byte("user:42"))
	asm.BlockedAddHash(words, h, k)

	line, ok := asm.BlockedLineOf(words, h)
	g := h * asm.BlockedMul
	keep, _ := asm.BlockedRows(k)
	held := ok && asm.BlockedRoundHas(line, g, &keep[g>>13&7]) == ^uint64(0)
	fmt.Println(held, asm.BlockedTestHash(words, h, k))

	other := engine.Hash([]byte("user:43"))
	line, ok = asm.BlockedLineOf(words, other)
	g = other * asm.BlockedMul
	fmt.Println(ok && asm.BlockedRoundHas(line, g, asm.BlockedKeepRow(g, k)) == ^uint64(0), asm.BlockedTestHash(words, other, k))
	// Output:
	// true true
	// false false
}
