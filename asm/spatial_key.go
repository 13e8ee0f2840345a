package asm

import (
	"github.com/filterengine/filterengine/internal/hashing"
)

// The spatial filter's single-key Check as a kernel: spatial.Filter's
// Check and CheckUint64 are each one call to SpatialCheckKey /
// SpatialCheckUint64, inlined into the caller. On amd64 from avx2 up an
// 8-byte key (or a uint64) of a line-local filter with k <= 8 runs one
// AVX2 kernel (gen/spatial/key.go): the hash, the line, and the k cells
// gathered from it, shifted, masked and reduced to their minimum in
// vector lanes, with no loop. Other keys, layouts and builds run the
// Generic twins below, which are the specification.

// SpatialProbe is what the single-key kernels read of a spatial filter,
// by offset (the generator takes them from unsafe.Offsetof).
type SpatialProbe struct {
	// Words is the cells as little-endian 32-bit words, padded as
	// SpatialCheck needs.
	Words []uint32
	// M is the cells; Lines the 64-byte lines of the line-local layout,
	// 0 for libSBF's.
	M, Lines uint64
	// Seed is the hash seed; Key is hashing.Uint64Key(Seed).
	Seed, Key uint64
	// CellLog is log2 of the cell width in bits: 2, 3 or 4.
	CellLog uint
	K       uint32
	// Row holds the kernel's constants for (CellLog, K) where it takes
	// the filter (line-local, K <= 8), else nil.
	Row *SpatialRow
}

// SpatialRow is the line-local probe of k <= 8 cells of one width, lane
// by lane: lane j's probe value is x << Shifts[j] (x = h*SpatialLineMix),
// its word x>>60 of the line, its cell at bit (x>>55) & OffMask, masked
// by CellMask; a lane j >= k is ORed with all ones (Off), so it never is
// the minimum.
type SpatialRow struct {
	Shifts   [8]uint64
	Off      [8]uint32
	OffMask  [4]uint32
	CellMask [4]uint32
}

// spatialRows[cellLog-2][k-1] is the row of cells of 1 << cellLog bits
// and k probes.
var spatialRows = func() (rows [3][8]SpatialRow) {
	for c := range uint(3) {
		cellLog := c + 2
		for k := range 8 {
			r := &rows[c][k]
			for j := range 8 {
				r.Shifts[j] = uint64((9 - cellLog) * uint(j))
				if j > k {
					r.Off[j] = ^uint32(0)
				}
			}
			for i := range 4 {
				r.OffMask[i] = 32 - 1<<cellLog
				r.CellMask[i] = 1<<(1<<cellLog) - 1
			}
		}
	}
	return rows
}()

// NewSpatialProbe returns the probe of a spatial filter.
func NewSpatialProbe(words []uint32, m, lines uint64, k uint32, cellLog uint, seed uint64) SpatialProbe {
	p := SpatialProbe{Words: words, M: m, Lines: lines, Seed: seed, Key: hashing.Uint64Key(seed), CellLog: cellLog, K: k}
	if lines != 0 && len(words) > 0 && k >= 1 && k <= 8 && cellLog >= 2 && cellLog <= 4 {
		p.Row = &spatialRows[cellLog-2][k-1]
	}
	return p
}

// spatialZero is the panic of a read of a zero spatial.Filter, the
// message internal/batch.Zero gives for that type (the spatial package's
// tests hold the two equal).
const spatialZero = "spatial.Filter: zero value, use spatial.New"

// SpatialCheckKey returns the area key is in by p's filter, 0 for none.
func SpatialCheckKey(p *SpatialProbe, key []byte) uint32 { return spatialCheckKey(probeAddr(p), key) }

// SpatialCheckUint64 is SpatialCheckKey of the 8 little-endian bytes of
// key.
func SpatialCheckUint64(p *SpatialProbe, key uint64) uint32 {
	return spatialCheckUint64(probeAddr(p), key)
}

// Hash returns engine.HashSeed(key, p.Seed).
func (p *SpatialProbe) Hash(key []byte) uint64 { return hashing.HashKeyed(key, p.Seed, p.Key) }

// CheckHash is the Check of hash h: SpatialLineCheck or SpatialCheck as
// the layout is. It panics on a zero filter with its message.
func (p *SpatialProbe) CheckHash(h uint64) uint32 {
	if p.K == 0 {
		panic(spatialZero)
	}
	if p.Lines != 0 {
		return SpatialLineCheck(&p.Words[0], p.Lines, p.K, p.CellLog, h)
	}
	return SpatialCheck(&p.Words[0], p.M, p.K, p.CellLog, h)
}

func spatialCheckKeyGeneric(p *uint64, key []byte) uint32 {
	q := probeAt[SpatialProbe](p)
	return q.CheckHash(q.Hash(key))
}

func spatialCheckUint64Generic(p *uint64, key uint64) uint32 {
	q := probeAt[SpatialProbe](p)
	return q.CheckHash(hashing.HashUint64Keyed(key, q.Key))
}
