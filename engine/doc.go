// Package engine is the pure-Go core every filter family shares: the key
// hash, the sizing and false-positive mathematics, 64-byte aligned bit
// storage (backed by transparent huge pages when large), the serialization
// envelope and the Filter interface. It imports nothing of this module.
//
// Hashing: a key is a []byte and its hash is XXH3-64 with the filter's seed
// (0 by default). Every family derives all probe positions from that one
// 64-bit hash, so AddHash/TestHash take pre-hashed keys and batch kernels
// work on []uint64 hashes. HashUint64(k) equals Hash of the 8 little-endian
// bytes of k, so an integer key and its bytes land in the same place.
//
// XXH64 (the 64-bit xxHash, not XXH3) is here too for formats that
// prescribe it: Parquet's split-block Bloom filter hashes every value with
// XXH64, seed 0. XXH64Uint64 is its scalar form for one 8-byte value.
package engine
