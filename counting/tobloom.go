package counting

import (
	"runtime"

	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/engine"
)

// ToBloom returns the blocked filter whose bit w*64+b of line l is set
// exactly when counter w*64+b of line l is nonzero: the blocked filter of
// the same lines, k and seed that holds the keys currently counted, so it
// answers every key exactly as this filter does, in an eighth (4-bit) or
// a sixteenth (8-bit) of the memory. Options go to blocked.FromWords
// (engine.WithHugePages); the seed is the counting filter's. Under
// concurrent updates it reflects some interleaving of them, each word
// read atomically.
func (f *Filter) ToBloom(opts ...engine.Option) (*blocked.Filter, error) {
	words := make([]uint64, f.lines*8)
	for c := range words { // chunk c of the filter is word c of the blocked filter
		chunk := f.words[uint64(c)*f.chunkWords:][:f.chunkWords]
		var bitsOf uint64
		if f.wide {
			for i := range chunk {
				bitsOf |= gatherBytes(f.nonzero(load(&chunk[i]))) << (8 * i)
			}
		} else {
			for i := range chunk {
				nz := f.nonzero(load(&chunk[i]))
				bitsOf |= gatherBytes(nz)<<(8*i) | gatherBytes(nz>>4)<<(32+8*i)
			}
		}
		words[c] = bitsOf
	}
	runtime.KeepAlive(f.storage)
	return blocked.FromWords(words, f.k, append([]engine.Option{engine.WithSeed(f.seed)}, opts...)...)
}

// gatherBytes returns the byte whose bit i is bit 8i of x. The multiply
// moves bit 8i to bit 56+i; no two partial products share a bit, so there
// are no carries.
func gatherBytes(x uint64) uint64 {
	return (x & 0x0101010101010101) * 0x0102040810204080 >> 56
}
