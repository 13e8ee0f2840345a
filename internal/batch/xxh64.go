package batch

import (
	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/internal/hashing"
)

// The XXH64 forms, for formats that prescribe XXH64 with seed 0 rather
// than the library's XXH3 (Parquet's split-block Bloom filter, parquet.Filter).

// XXH64Keys hashes the first min(len(keys), Chunk) keys with
// hashing.XXH64(key, 0) and returns those hashes.
func (b *Hashes) XXH64Keys(keys [][]byte) []uint64 {
	c := keys[:min(len(keys), Chunk)]
	hs := b[:len(c)]
	for i, k := range c {
		hs[i] = hashing.XXH64(k, 0)
	}
	return hs
}

// XXH64Uint64s hashes the first min(len(ks), Chunk) keys with
// hashing.XXH64Uint64 (XXH64 of their 8 little-endian bytes, seed 0), in
// batch (asm.XXH64Uint64s), and returns those hashes.
func (b *Hashes) XXH64Uint64s(ks []uint64) []uint64 {
	c := ks[:min(len(ks), Chunk)]
	asm.XXH64Uint64s(b[:len(c)], c)
	return b[:len(c)]
}
