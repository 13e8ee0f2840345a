// Package hashconst holds the constants of the two hash functions the
// library computes itself, XXH3's 8-byte path (hashing.HashUint64Keyed and
// the batch kernels) and XXH64 (hashing.XXH64, Parquet's split-block
// filter), so that engine and the kernel generators in gen/ take them from
// one place instead of retyping them.
package hashconst

// XXH3 constants for 4..8-byte inputs: bytes 8..23 of the default secret
// folded together, and the rrmxmx multiplier (XXH3 specification,
// doc/xxhash_spec.md in github.com/Cyan4973/xxHash).
const (
	XXH3Secret8to24 = 0x1cad21f72c81017c ^ 0xdb979083e96dd4de
	XXH3RRMXMXMul   = 0x9fb21c651e98df25
)

// XXH64 primes (the same specification, "XXH64 Algorithm Description").
const (
	XXH64P1 uint64 = 0x9E3779B185EBCA87
	XXH64P2 uint64 = 0xC2B2AE3D27D4EB4F
	XXH64P3 uint64 = 0x165667B19E3779F9
	XXH64P4 uint64 = 0x85EBCA77C2B2AE63
	XXH64P5 uint64 = 0x27D4EB2F165667C5
)
