package asm

import (
	"github.com/filterengine/filterengine/internal/hashing"
)

// Parquet's split-block Bloom filter (SBBF), as parquet-format specifies it
// (BloomFilter.md, "Technical Approach", github.com/apache/parquet-format):
// the filter is an array of 256-bit blocks of eight 32-bit words; a value
// is hashed with XXH64 (seed 0) to h, its block is
//
//	block = ((h >> 32) * numBlocks) >> 32
//
// and the low 32 bits key = uint32(h) set one bit in each word i,
// bit (key * SBBFSalt[i]) >> 27 (a 32-bit product). Parquet stores the
// words little-endian, so the bitset is a byte array that reads the same
// on every host.
//
// The kernels here take the bitset as []uint64 words, four per block: the
// 32-bit word i of block b is bits 32*(i&1) .. 32*(i&1)+31 of
// words[4b + i/2], which on a little-endian host is exactly the byte
// layout Parquet stores.

// SBBFSalt are the eight odd multipliers of the SBBF (parquet-format
// BloomFilter.md).
var SBBFSalt = [8]uint32{
	0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d,
	0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31,
}

// sbbfBlock returns the block of hash h in a filter of numBlocks blocks
// (numBlocks at most 2^32).
func sbbfBlock(h, numBlocks uint64) uint64 { return ((h >> 32) * numBlocks) >> 32 }

// sbbfMask returns the eight bits hash h sets in its block, as the four
// 64-bit words of the block hold them.
func sbbfMask(h uint64) (m [4]uint64) {
	key := uint32(h)
	for j := range m {
		m[j] = 1<<((key*SBBFSalt[2*j])>>27) | 1<<(32+(key*SBBFSalt[2*j+1])>>27)
	}
	return m
}

// The salts as constants, so the scalar forms multiply by immediates.
const (
	sbbfSalt0 = 0x47b6137b
	sbbfSalt1 = 0x44974d91
	sbbfSalt2 = 0x8824ad5b
	sbbfSalt3 = 0xa2b7289d
	sbbfSalt4 = 0x705495c7
	sbbfSalt5 = 0x2df1424b
	sbbfSalt6 = 0x9efc4947
	sbbfSalt7 = 0x5c6bfb31
)

// sbbfPair is the two bits key sets in one 64-bit word of its block:
// 32-bit words 2j (low half) and 2j+1 (high half) for salts lo and hi.
func sbbfPair(key, lo, hi uint32) uint64 {
	return sbbfBit[0][(key*lo)>>27] | sbbfBit[1][(key*hi)>>27]
}

// sbbfBit[0][i] = 1 << i and sbbfBit[1][i] = 1 << (32+i): one table load
// replaces the move, the shift by CL and the bit insert of 1 << x, a
// shorter instruction stream per key (several keys' misses then overlap
// in the out-of-order window).
var sbbfBit = func() (t [2][32]uint64) {
	for i := range 32 {
		t[0][i], t[1][i] = 1<<i, 1<<(32+i)
	}
	return t
}()

// SBBFTestHash reports whether the block of h holds all its bits (sbbfMask
// spelled out with constant salts). An empty words answers false.
func SBBFTestHash(words []uint64, h uint64) bool {
	b := ((h >> 32) * (uint64(len(words)) >> 2)) >> 32 * 4
	if b+4 > uint64(len(words)) {
		return false // no blocks
	}
	blk := words[b : b+4 : b+4]
	key := uint32(h)
	miss := sbbfPair(key, sbbfSalt0, sbbfSalt1) &^ blk[0]
	miss |= sbbfPair(key, sbbfSalt2, sbbfSalt3) &^ blk[1]
	miss |= sbbfPair(key, sbbfSalt4, sbbfSalt5) &^ blk[2]
	miss |= sbbfPair(key, sbbfSalt6, sbbfSalt7) &^ blk[3]
	return miss == 0
}

// SBBFAddHash sets the bits of h in its block. words must hold at least
// one block.
func SBBFAddHash(words []uint64, h uint64) {
	b := ((h >> 32) * (uint64(len(words)) >> 2)) >> 32 * 4
	if b+4 > uint64(len(words)) {
		panic("asm: SBBFAddHash on a filter without blocks")
	}
	blk := words[b : b+4 : b+4]
	key := uint32(h)
	blk[0] |= sbbfPair(key, sbbfSalt0, sbbfSalt1)
	blk[1] |= sbbfPair(key, sbbfSalt2, sbbfSalt3)
	blk[2] |= sbbfPair(key, sbbfSalt4, sbbfSalt5)
	blk[3] |= sbbfPair(key, sbbfSalt6, sbbfSalt7)
}

// sbbfMaxBlocks bounds the block count so the block index math stays in
// 64 bits.
const sbbfMaxBlocks = 1 << 32

func checkSBBF(words []uint64) {
	if len(words) == 0 || len(words)%4 != 0 || uint64(len(words))/4 > sbbfMaxBlocks {
		panic("asm: SBBF needs a whole number of 256-bit blocks, at least one")
	}
}

// SBBFTestHashes sets out[i] to whether hs[i] may be in the SBBF words and
// returns the number of hits. out must be at least as long as hs.
func SBBFTestHashes(words []uint64, hs []uint64, out []bool) int {
	checkSBBF(words)
	out = out[:len(hs)]
	return sbbfTestHashes(words, hs, out)
}

// SBBFAddHashes adds every hash in hs to the SBBF words.
func SBBFAddHashes(words []uint64, hs []uint64) {
	checkSBBF(words)
	sbbfAddHashes(words, hs)
}

// XXH64Uint64s sets dst[i] = hashing.XXH64Uint64(ks[i]) for every i. dst
// must be at least as long as ks.
func XXH64Uint64s(dst, ks []uint64) {
	if len(dst) < len(ks) {
		panic("asm: XXH64Uint64s dst shorter than keys")
	}
	xxh64Uint64s(dst[:len(ks)], ks)
}

// xxh64Uint64sGeneric is the specification of the batch XXH64 of 8-byte
// values.
func xxh64Uint64sGeneric(dst, ks []uint64) {
	for i, k := range ks {
		dst[i] = hashing.XXH64Uint64(k)
	}
}

// sbbfTestHashesGeneric is the specification of the batch SBBF test.
func sbbfTestHashesGeneric(words []uint64, hs []uint64, out []bool) int {
	hits := 0
	for i, h := range hs {
		hit := SBBFTestHash(words, h)
		out[i] = hit
		if hit {
			hits++
		}
	}
	return hits
}

// sbbfAddHashesGeneric is the specification of the batch SBBF add.
func sbbfAddHashesGeneric(words []uint64, hs []uint64) {
	for _, h := range hs {
		SBBFAddHash(words, h)
	}
}
