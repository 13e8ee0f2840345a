package asm

import (
	"math/bits"
	"unsafe"

	"github.com/filterengine/filterengine/internal/store"
)

// The line-local spatial layout puts all k cells of a key in one 64-byte
// line: 128 cells of 4 bits, 64 of 8 or 32 of 16 (SpatialLineCells). The
// array is lines whole lines, line L holding cells L*c .. L*c+c-1 packed
// as in libSBF's layout (so cell p is at bit p << cellLog as before).
// Key h uses line Reduce(h, lines) and, inside it, cell q_i for probe i:
// with w = 9 - cellLog bits per probe (log2 c) and r = 64/w probes per
// 64-bit word, q_i is bits [64-w(j+1), 64-wj) of x_{i/r}, j = i mod r,
// where x_0 = h * SpatialLineMix and x_{t+1} = x_t * spatialLineStep + 1.
// The probes are drawn with replacement (two may coincide), which is
// what the model in package spatial assumes.
const (
	SpatialLineMix  = 0x9e3779b97f4a7c15 // odd: the 64-bit golden ratio
	spatialLineStep = 0xd1342543de82ef95 // odd LCG multiplier (Steele, Vigna 2021)
)

// SpatialLineCells is the number of cells of 1 << cellLog bits in a line.
func SpatialLineCells(cellLog uint) uint64 { return 512 >> cellLog }

// SpatialLineProbes writes the k cell indices of hash h in the
// line-local layout into dst[:k]: the specification of the probes.
func SpatialLineProbes(h, lines uint64, k uint32, cellLog uint, dst []uint64) {
	dst = dst[:k]
	line, _ := bits.Mul64(h, lines)
	base := line << (9 - cellLog)
	w := 9 - cellLog
	per := 64 / w
	y := h * SpatialLineMix
	x, left := y, per
	for i := range dst {
		if left == 0 {
			y = y*spatialLineStep + 1
			x, left = y, per
		}
		dst[i] = base + x>>(64-w)
		x <<= w
		left--
	}
}

// SpatialLineCheck answers one hash's Check on the line-local layout:
// the smallest of h's k cells (1 << cellLog bits, 2..4) in the lines
// 64-byte lines at words, 0 as soon as one is empty. words must point at
// 4-byte aligned memory of lines lines (64-byte aligned for speed);
// nothing is bounds-checked. Each
// width runs its own copy of the loop with constant shifts; k above one
// word of probes (9, 10 and 12 for 4-, 8- and 16-bit cells) takes the
// general loop.
func SpatialLineCheck(words *uint32, lines uint64, k uint32, cellLog uint, h uint64) uint32 {
	lw, x := spatialLineAt(words, lines, h)
	switch {
	case cellLog == 2 && k <= 64/7:
		return spatialLineMin(lw, x, k, 2, 0xf)
	case cellLog == 3 && k <= 64/6:
		return spatialLineMin(lw, x, k, 3, 0xff)
	case cellLog == 4 && k <= 64/5:
		return spatialLineMin(lw, x, k, 4, 0xffff)
	}
	return spatialLineCheckLong(words, lines, k, cellLog, h)
}

// spatialLineTouch loads the first word of hs[j]'s line, if j is in
// range (see spatialPrefetchDist).
func spatialLineTouch(words *uint32, lines uint64, hs []uint64, j int) {
	if uint(j) < uint(len(hs)) {
		lw, _ := spatialLineAt(words, lines, hs[j])
		store.LoadLE32(lw)
	}
}

// spatialLineAt returns h's line and the bits its probes are cut from.
func spatialLineAt(words *uint32, lines, h uint64) (*uint32, uint64) {
	line, _ := bits.Mul64(h, lines)
	return (*uint32)(unsafe.Add(unsafe.Pointer(words), line<<6)), h * SpatialLineMix
}

// spatialLineMin is SpatialLineCheck's loop over the line at lw for
// k <= 64/(9-cellLog), x = h * SpatialLineMix; it is inlined with
// constant cellLog and mask. Probe q = x >> (55 + cellLog) is in the
// line's 32-bit word q >> (5 - cellLog) = x >> 60 (16 words a line, for
// every width) at bit (q << cellLog) & 31 = (x >> 55) & (32 - width).
// It has no early exit: the k cells share one line, so stopping at an
// empty one would save no miss, only add a branch per probe.
func spatialLineMin(lw *uint32, x uint64, k uint32, cellLog uint, mask uint32) uint32 {
	least := uint32(0xffff)
	for ; k != 0; k-- {
		w := store.LoadLE32((*uint32)(unsafe.Add(unsafe.Pointer(lw), x>>60*4)))
		least = min(least, w>>(x>>55&(32-1<<cellLog))&mask)
		x <<= 9 - cellLog
	}
	return least
}

// spatialLineCheckLong is the line-local Check for any k.
func spatialLineCheckLong(words *uint32, lines uint64, k uint32, cellLog uint, h uint64) uint32 {
	var ps [64]uint64
	SpatialLineProbes(h, lines, k, cellLog, ps[:])
	mask := uint32(1)<<(1<<cellLog) - 1
	least := uint32(0xffff)
	for _, p := range ps[:k] {
		if least = min(least, spatialCell(words, p, cellLog, mask)); least == 0 {
			break
		}
	}
	return least
}

// SpatialLineCheckHashes is SpatialCheckHashes for the line-local
// layout: out[i] = SpatialLineCheck of hs[i]; it returns how many are
// non-zero. cells holds lines 64-byte lines and starts 4-byte aligned (a
// filter's own array is 64-byte aligned, so no line straddles two cache
// lines; a View's cells in a file or the caller's bytes may be only
// 8-byte aligned, which costs speed, never answers).
// Concurrent raises by 32-bit CAS are safe as for SpatialCheckHashes.
// One Go loop serves every kernel level (no SIMD twin yet): a key's
// probes share one line, so the loop is bound by one miss per key.
func SpatialLineCheckHashes(cells []byte, lines uint64, k uint32, cellLog uint, hs []uint64, out []uint16) int {
	if len(out) < len(hs) {
		panic("asm: SpatialLineCheckHashes out shorter than hashes")
	}
	if cellLog < 2 || cellLog > 4 {
		panic("asm: SpatialLineCheckHashes cells of other than 4, 8 or 16 bits")
	}
	if lines == 0 || k == 0 || k > 64 || lines > uint64(len(cells))/64 {
		panic("asm: SpatialLineCheckHashes cell array smaller than its lines")
	}
	if uintptr(unsafe.Pointer(unsafe.SliceData(cells)))%4 != 0 {
		panic("asm: SpatialLineCheckHashes cell array not 4-byte aligned")
	}
	return spatialLineCheckHashesGeneric(cells, lines, k, cellLog, hs, out[:len(hs)])
}

// spatialLineCheckHashesGeneric is SpatialLineCheck per hash, with the
// width's probe loop inlined into the batch loop, touching the line of
// the key spatialPrefetchDist keys on.
func spatialLineCheckHashesGeneric(cells []byte, lines uint64, k uint32, cellLog uint, hs []uint64, out []uint16) int {
	words := (*uint32)(unsafe.Pointer(unsafe.SliceData(cells)))
	out = out[:len(hs)]
	hits := 0
	switch {
	case cellLog == 2 && k <= 64/7:
		for j, h := range hs {
			spatialLineTouch(words, lines, hs, j+spatialPrefetchDist)
			lw, x := spatialLineAt(words, lines, h)
			v := spatialLineMin(lw, x, k, 2, 0xf)
			out[j] = uint16(v)
			hits += int((v | -v) >> 31)
		}
	case cellLog == 3 && k <= 64/6:
		for j, h := range hs {
			spatialLineTouch(words, lines, hs, j+spatialPrefetchDist)
			lw, x := spatialLineAt(words, lines, h)
			v := spatialLineMin(lw, x, k, 3, 0xff)
			out[j] = uint16(v)
			hits += int((v | -v) >> 31)
		}
	default:
		for j, h := range hs {
			spatialLineTouch(words, lines, hs, j+spatialPrefetchDist)
			v := SpatialLineCheck(words, lines, k, cellLog, h)
			out[j] = uint16(v)
			hits += int((v | -v) >> 31)
		}
	}
	return hits
}
