package main

import (
	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
)

// loadsHashedGo is loadsHashed written in Go: the reference its assembly
// is held to, and the loop itself where there is no assembly.
func loadsHashedGo(words, ks []uint64, seed, lines uint64) uint64 {
	var sum uint64
	for _, x := range ks {
		sum += words[asm.BlockedLine(engine.HashUint64Seed(x, seed), lines)*8]
	}
	return sum
}
