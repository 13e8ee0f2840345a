package main

import (
	"math/bits"
	"unsafe"

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

// mulMix is Boost.Bloom's mix of an integer key: the high and low words
// of its 128-bit product with the 64-bit golden ratio, XORed.
func mulMix(x uint64) uint64 {
	hi, lo := bits.Mul64(x, 0x9E3779B97F4A7C15)
	return hi ^ lo
}

// floorProbe is the blocked array loadMixed reads: its first word and
// its number of lines, in that order.
type floorProbe struct {
	words *uint64
	lines uint64
}

func newFloorProbe(words []uint64, lines uint64) *floorProbe {
	return &floorProbe{words: unsafe.SliceData(words), lines: lines}
}

// loadMixedGo is loadMixed written in Go, the reference its assembly is
// held to.
func loadMixedGo(p *floorProbe, key uint64) uint64 {
	return *(*uint64)(unsafe.Add(unsafe.Pointer(p.words), asm.BlockedLine(mulMix(key), p.lines)*64))
}

// loadsCalled sums loadMixed over ks, one call per key.
//
//go:noinline
func loadsCalled(p *floorProbe, ks []uint64) uint64 {
	var sum uint64
	for _, x := range ks {
		sum += loadMixed((*uint64)(unsafe.Pointer(p)), x)
	}
	return sum
}
