package asm

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/filterengine/filterengine/internal/cpulevel"
)

// spatialCellLogs are the cell widths of SpatialCheckHashes (4, 8 and 16
// bits) with the largest label each holds.
var spatialCellLogs = []struct {
	cellLog uint
	areas   int
}{{2, 15}, {3, 255}, {4, 65535}}

// spatialArrayForTest returns a zeroed, 4-byte aligned array for m cells
// of 1<<cellLog bits plus padding.
func spatialArrayForTest(m uint64, cellLog uint) []byte {
	return alignedBytesForTest((m<<cellLog+7)/8 + spatialPad)
}

// alignedBytesForTest returns n zero bytes starting 4-byte aligned, as
// engine storage is (a small make([]byte) may start at any byte).
func alignedBytesForTest(n uint64) []byte {
	w := make([]uint32, (n+3)/4+1)
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), n)
}

// putSpatialCell writes v into cell p, one byte at a time, independently
// of the 4-byte loads the code under test uses.
func putSpatialCell(cells []byte, p uint64, cellLog uint, v uint64) {
	switch cellLog {
	case 2:
		sh := 4 * (p & 1)
		cells[p/2] = cells[p/2]&^(0xf<<sh) | byte(v&0xf)<<sh
	case 3:
		cells[p] = byte(v)
	default:
		cells[2*p], cells[2*p+1] = byte(v), byte(v>>8)
	}
}

// spatialCellsForTest returns m random cells of 1<<cellLog bits with
// values in [0, areas], the given fraction of them zero, plus padding.
func spatialCellsForTest(r *rand.Rand, m uint64, cellLog uint, areas int, zeros float64) []byte {
	cells := spatialArrayForTest(m, cellLog)
	for i := uint64(0); i < m; i++ {
		v := 0
		if r.Float64() >= zeros {
			v = 1 + r.IntN(areas)
		}
		putSpatialCell(cells, i, cellLog, uint64(v))
	}
	return cells
}

func randomHashes(r *rand.Rand, n int) []uint64 {
	hs := make([]uint64, n)
	for i := range hs {
		hs[i] = r.Uint64()
	}
	return hs
}

// checkSpatialAgainstGeneric runs the dispatched batch and the generic
// specification on the same input and fails on any difference.
func checkSpatialAgainstGeneric(t *testing.T, cells []byte, m uint64, k uint32, cellLog uint, hs []uint64) {
	t.Helper()
	got := make([]uint16, len(hs))
	want := make([]uint16, len(hs))
	gotHits := SpatialCheckHashes(cells, m, k, cellLog, hs, got)
	wantHits := spatialCheckHashesGeneric(cells, m, k, cellLog, hs, want)
	if gotHits != wantHits {
		t.Fatalf("%v m=%d k=%d cellLog=%d n=%d: hits %d, generic %d", level, m, k, cellLog, len(hs), gotHits, wantHits)
	}
	for i := range hs {
		if got[i] != want[i] {
			t.Fatalf("%v m=%d k=%d cellLog=%d n=%d: out[%d] = %d, generic %d", level, m, k, cellLog, len(hs), i, got[i], want[i])
		}
	}
}

func TestSpatialCheckHashes(t *testing.T) {
	sizes := []int{0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000}
	forEachLevel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		for _, w := range spatialCellLogs {
			for _, m := range []uint64{1, 2, 3, 61, 1000, 1<<16 + 7} {
				for _, zeros := range []float64{0.05, 0.5} {
					cells := spatialCellsForTest(r, m, w.cellLog, w.areas, zeros)
					for _, k := range []uint32{1, 2, 7, 16} {
						for _, n := range sizes {
							checkSpatialAgainstGeneric(t, cells, m, k, w.cellLog, randomHashes(r, n))
						}
					}
				}
			}
		}
	})
}

// TestSpatialCheckHashesLargeArray probes a 2^26-cell array (32 MiB of
// 4-bit cells up to 128 MiB of 16-bit) where only the probed cells are
// set, each to a label derived from its index, so a kernel reading a
// neighbouring cell (for 4-bit cells, the other nibble of the byte)
// answers 0 or a different label. m is odd, and hashes include the
// extremes whose probes land on the first and last cells, where a gather
// reads padding.
func TestSpatialCheckHashesLargeArray(t *testing.T) {
	const m = 1<<26 - 3
	r := rand.New(rand.NewPCG(3, 4))
	hs := append([]uint64{0, ^uint64(0), 1 << 63, ^uint64(0) >> 1, 0xffffffff00000000, 0x00000000ffffffff, 1, 2}, randomHashes(r, 200)...)
	for _, w := range spatialCellLogs {
		cells := spatialArrayForTest(m, w.cellLog)
		for _, h := range hs {
			for i := uint32(0); i < 5; i++ {
				p := spatialProbe(h, i, m)
				putSpatialCell(cells, p, w.cellLog, p%uint64(w.areas)+1)
			}
		}
		forEachLevel(t, func(t *testing.T) {
			checkSpatialAgainstGeneric(t, cells, m, 5, w.cellLog, hs)
			checkSpatialAgainstGeneric(t, cells, m, 1, w.cellLog, hs[:16])
			out := make([]uint16, len(hs))
			if hits := SpatialCheckHashes(cells, m, 5, w.cellLog, hs, out); hits != len(hs) {
				t.Errorf("cellLog %d: %d of %d keys found, all probed cells are set", w.cellLog, hits, len(hs))
			}
			for j, h := range hs {
				want := uint64(w.areas)
				for i := uint32(0); i < 5; i++ {
					p := spatialProbe(h, i, m)
					want = min(want, p%uint64(w.areas)+1)
				}
				if uint64(out[j]) != want {
					t.Fatalf("cellLog %d hash %#x: %d, want the smallest probed label %d", w.cellLog, h, out[j], want)
				}
			}
		})
	}
}

// TestSpatialReduceSplit checks the identity the kernels use for the
// multiply-high: for m < 2^32, hi64(g*m) = (hi32(g)*m + (lo32(g)*m >> 32)) >> 32.
func TestSpatialReduceSplit(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, m := range []uint64{1, 2, 3, 1000, 1<<31 + 1, 1<<32 - 1} {
		for _, g := range append([]uint64{0, ^uint64(0), 1 << 63, 1<<32 - 1}, randomHashes(r, 10000)...) {
			split := (g>>32*m + (g&(1<<32-1))*m>>32) >> 32
			if want := spatialProbe(g, 0, m); split != want {
				t.Fatalf("m=%d g=%#x: split reduce %d, multiply-high %d", m, g, split, want)
			}
		}
	}
}

func TestSpatialCheckHashesAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	hs := randomHashes(r, 1000)
	out := make([]uint16, len(hs))
	for _, w := range spatialCellLogs {
		cells := spatialCellsForTest(r, 4095, w.cellLog, 10, 0.1)
		forEachLevel(t, func(t *testing.T) {
			if a := testing.AllocsPerRun(10, func() { SpatialCheckHashes(cells, 4095, 7, w.cellLog, hs, out) }); a != 0 {
				t.Errorf("cellLog %d: SpatialCheckHashes allocates %v times per batch", w.cellLog, a)
			}
		})
	}
}

// TestSpatialCheckHashesBounds: an array one byte short of m cells plus
// padding, one not 4-byte aligned, or a cell width other than 4, 8 or 16
// bits, is refused. For
// odd m of 4-bit cells the last cell's byte is shared with nothing, so
// (m+1)/2 bytes hold m cells.
func TestSpatialCheckHashesBounds(t *testing.T) {
	refused := func(cells []byte, m uint64, cellLog uint) (r bool) {
		defer func() { r = recover() != nil }()
		SpatialCheckHashes(cells, m, 1, cellLog, []uint64{1, ^uint64(0)}, make([]uint16, 2))
		return false
	}
	for _, c := range []struct {
		m       uint64
		cellLog uint
		bytes   int
	}{{13, 2, 7}, {14, 2, 7}, {1, 2, 1}, {13, 3, 13}, {13, 4, 26}} {
		if refused(alignedBytesForTest(uint64(c.bytes+spatialPad)), c.m, c.cellLog) {
			t.Errorf("m=%d cellLog=%d: %d bytes plus padding refused", c.m, c.cellLog, c.bytes)
		}
		if !refused(alignedBytesForTest(uint64(c.bytes+spatialPad-1)), c.m, c.cellLog) {
			t.Errorf("m=%d cellLog=%d: %d bytes plus padding less one accepted", c.m, c.cellLog, c.bytes)
		}
	}
	for _, cellLog := range []uint{0, 1, 5} {
		if !refused(alignedBytesForTest(64), 8, cellLog) {
			t.Errorf("cellLog %d accepted", cellLog)
		}
	}
	// The atomic word loads of the generic loop need 4-byte alignment.
	for off := 1; off < 4; off++ {
		if !refused(alignedBytesForTest(64)[off:], 8, 3) {
			t.Errorf("cell array at byte offset %d accepted", off)
		}
	}
}

func FuzzSpatialCheckHashes(f *testing.F) {
	f.Add(uint64(1), uint64(1000), uint8(7), uint8(0), 0.1, 17)
	f.Add(uint64(2), uint64(3), uint8(1), uint8(2), 0.0, 64)
	f.Add(uint64(3), uint64(999), uint8(7), uint8(1), 0.3, 33)
	fuzzSpatialKernel(f, 100000, 32, spatialCellsForTest, checkSpatialAgainstGeneric)
}

// fuzzSpatialKernel is a spatial layout's fuzz body: size m of at most
// mMod (cells or lines), k of at most kMod, a random cell array from
// cells with the given fraction of zero cells and n < 300 hashes, checked
// by check on every kernel level.
func fuzzSpatialKernel(f *testing.F, mMod uint64, kMod uint32,
	cells func(r *rand.Rand, m uint64, cellLog uint, areas int, zeros float64) []byte,
	check func(t *testing.T, cells []byte, m uint64, k uint32, cellLog uint, hs []uint64)) {
	f.Fuzz(func(t *testing.T, seed, m uint64, k uint8, width uint8, zeros float64, n int) {
		m = m%mMod + 1
		kk := uint32(k)%kMod + 1
		n = int(uint(n) % 300)
		if !(zeros >= 0 && zeros <= 1) {
			zeros = 0.5
		}
		w := spatialCellLogs[width%3]
		r := rand.New(rand.NewPCG(seed, m))
		c := cells(r, m, w.cellLog, w.areas, zeros)
		hs := randomHashes(r, n)
		for _, l := range cpulevel.Available() {
			restore, err := cpulevel.Use(l)
			if err != nil {
				t.Fatal(err)
			}
			check(t, c, m, kk, w.cellLog, hs)
			restore()
		}
	})
}
