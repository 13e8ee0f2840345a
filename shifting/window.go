package shifting

import "github.com/filterengine/filterengine/asm"

// window returns bits pos .. pos+56 of the bit array words in bits 0 ..
// 56 (asm.ShiftingWindow: one unaligned load where the CPU allows it).
func window(words []uint64, pos uint64) uint64 { return asm.ShiftingWindow(words, pos) }
