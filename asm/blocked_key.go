package asm

import (
	"unsafe"

	"github.com/filterengine/filterengine/internal/hashing"
)

// The single-key kernels. blocked.Filter's Test, Add, TestAndAdd and
// their Uint64 forms are each one call to BlockedTestKey and its
// siblings, which the compiler inlines into the caller's loop. On amd64
// from avx2 up a key of 8 bytes (or a uint64) runs one AVX2 kernel,
// hash included (gen/blocked/key.go), a shorter instruction stream than
// the Go probe with its call: a loop of single-key calls keeps more
// keys' cache misses in flight. Every other case, and the other builds, run the Generic twins
// below, which are the specification.

// BlockedProbe is what the single-key kernels read of a blocked filter.
// The kernels know its layout by unsafe.Offsetof, in their generator, and
// take it as a *uint64 (probeAddr).
type BlockedProbe struct {
	// Words is the bit array, Lines*8 words.
	Words []uint64
	Lines uint64
	// Take is BlockedRows(K)'s take table (the last round's window rows)
	// for a filter with lines and K <= 8, the one round the single-key
	// kernels take with one check; else nil.
	Take *[8][8]uint64
	// Rows is the same table for a filter with lines at every K (the
	// kernels' path for K > 8), else nil.
	Rows *[8][8]uint64
	// Seed is the hash seed; Key is hashing.Uint64Key(Seed).
	Seed, Key uint64
	K         uint32
}

// NewBlockedProbe returns the probe of a blocked filter over words
// (lines*8 of them) with k probes per key and the given seed.
func NewBlockedProbe(words []uint64, lines uint64, k uint32, seed uint64) BlockedProbe {
	p := BlockedProbe{Words: words, Lines: lines, Seed: seed, Key: hashing.Uint64Key(seed), K: k}
	if lines > 0 && uint64(len(words)) == lines*8 {
		_, p.Rows = BlockedRows(k)
		if k <= 8 {
			p.Take = p.Rows
		}
	}
	return p
}

// BlockedTestKey reports whether key may have been added to p's filter.
func BlockedTestKey(p *BlockedProbe, key []byte) bool { return blockedTestKey(probeAddr(p), key) }

// BlockedAddKey adds key. For k <= 8 it writes the key's whole line back,
// so it is for a writer with exclusive use.
func BlockedAddKey(p *BlockedProbe, key []byte) { blockedAddKey(probeAddr(p), key) }

// BlockedTestAndAddKey adds key and reports whether it tested present
// before; a key that did leaves its line unwritten.
func BlockedTestAndAddKey(p *BlockedProbe, key []byte) bool {
	return blockedTestAndAddKey(probeAddr(p), key)
}

// BlockedTestUint64 is BlockedTestKey of the 8 little-endian bytes of key.
func BlockedTestUint64(p *BlockedProbe, key uint64) bool { return blockedTestUint64(probeAddr(p), key) }

// BlockedAddUint64 is BlockedAddKey of the 8 little-endian bytes of key.
func BlockedAddUint64(p *BlockedProbe, key uint64) { blockedAddUint64(probeAddr(p), key) }

// BlockedTestAndAddUint64 is BlockedTestAndAddKey of the 8 little-endian
// bytes of key.
func BlockedTestAndAddUint64(p *BlockedProbe, key uint64) bool {
	return blockedTestAndAddUint64(probeAddr(p), key)
}

// Hash returns engine.HashSeed(key, p.Seed).
func (p *BlockedProbe) Hash(key []byte) uint64 { return hashing.HashKeyed(key, p.Seed, p.Key) }

// line returns the key's line and round value, for a probe with Take.
func (p *BlockedProbe) line(h uint64) (*[8]uint64, uint64) {
	return (*[8]uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(p.Words)), BlockedLine(h, p.Lines)*64)), h * BlockedMul
}

// TestHash is BlockedTestHash on p's filter.
func (p *BlockedProbe) TestHash(h uint64) bool {
	if p.Take == nil {
		return BlockedTestHash(p.Words, h, p.K)
	}
	line, v := p.line(h)
	return blockedRoundHas(line, v, &blockedKeep[p.K&7][v>>13&7]) == ^uint64(0)
}

// AddHash is BlockedAddHash on p's filter.
func (p *BlockedProbe) AddHash(h uint64) {
	if p.Take == nil {
		BlockedAddHash(p.Words, h, p.K)
		return
	}
	line, v := p.line(h)
	blockedRoundSet(line, v, &p.Take[v>>13&7])
}

// TestAndAddHash is BlockedTestAndAddHash on p's filter.
func (p *BlockedProbe) TestAndAddHash(h uint64) bool {
	if p.TestHash(h) {
		return true
	}
	p.AddHash(h)
	return false
}

func blockedTestKeyGeneric(p *uint64, key []byte) bool {
	q := probeAt[BlockedProbe](p)
	return q.TestHash(q.Hash(key))
}

func blockedAddKeyGeneric(p *uint64, key []byte) {
	q := probeAt[BlockedProbe](p)
	q.AddHash(q.Hash(key))
}

func blockedTestAndAddKeyGeneric(p *uint64, key []byte) bool {
	q := probeAt[BlockedProbe](p)
	return q.TestAndAddHash(q.Hash(key))
}

func blockedTestUint64Generic(p *uint64, key uint64) bool {
	q := probeAt[BlockedProbe](p)
	return q.TestHash(hashing.HashUint64Keyed(key, q.Key))
}

func blockedAddUint64Generic(p *uint64, key uint64) {
	q := probeAt[BlockedProbe](p)
	q.AddHash(hashing.HashUint64Keyed(key, q.Key))
}

func blockedTestAndAddUint64Generic(p *uint64, key uint64) bool {
	q := probeAt[BlockedProbe](p)
	return q.TestAndAddHash(hashing.HashUint64Keyed(key, q.Key))
}
