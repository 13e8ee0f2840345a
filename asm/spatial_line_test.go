package asm

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// lineArrayForTest returns lines zeroed 64-byte lines starting 64-byte
// aligned, as engine storage is.
func lineArrayForTest(lines uint64) []byte {
	w := make([]uint64, 8*lines+8)
	off := (64 - uintptr(unsafe.Pointer(unsafe.SliceData(w)))%64) % 64 / 8
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[off])), 64*lines)
}

// lineCellsForTest fills lines lines of 1<<cellLog-bit cells with values
// in [0, areas], the given fraction zero.
func lineCellsForTest(r *rand.Rand, lines uint64, cellLog uint, areas int, zeros float64) []byte {
	cells := lineArrayForTest(lines)
	for p := range lines * SpatialLineCells(cellLog) {
		v := 0
		if r.Float64() >= zeros {
			v = 1 + r.IntN(areas)
		}
		putSpatialCell(cells, p, cellLog, uint64(v))
	}
	return cells
}

// getSpatialCell reads cell p one byte at a time.
func getSpatialCell(cells []byte, p uint64, cellLog uint) uint16 {
	switch cellLog {
	case 2:
		return uint16(cells[p/2] >> (4 * (p & 1)) & 0xf)
	case 3:
		return uint16(cells[p])
	}
	return uint16(cells[2*p]) | uint16(cells[2*p+1])<<8
}

// lineCheckSpec is the line-local Check from SpatialLineProbes and byte
// reads: the smallest label of h's k cells.
func lineCheckSpec(cells []byte, lines uint64, k uint32, cellLog uint, h uint64) uint16 {
	ps := make([]uint64, k)
	SpatialLineProbes(h, lines, k, cellLog, ps)
	least := uint16(0xffff)
	for _, p := range ps {
		least = min(least, getSpatialCell(cells, p, cellLog))
	}
	return least
}

// checkLineAgainstSpec runs the batch and the single-key form against
// the specification.
func checkLineAgainstSpec(t *testing.T, cells []byte, lines uint64, k uint32, cellLog uint, hs []uint64) {
	t.Helper()
	out := make([]uint16, len(hs))
	hits := SpatialLineCheckHashes(cells, lines, k, cellLog, hs, out)
	want := 0
	words := (*uint32)(unsafe.Pointer(unsafe.SliceData(cells)))
	for i, h := range hs {
		spec := lineCheckSpec(cells, lines, k, cellLog, h)
		if spec != 0 {
			want++
		}
		if out[i] != spec {
			t.Fatalf("%v lines=%d k=%d cellLog=%d n=%d: out[%d] = %d, spec %d", level, lines, k, cellLog, len(hs), i, out[i], spec)
		}
		if one := SpatialLineCheck(words, lines, k, cellLog, h); uint16(one) != spec {
			t.Fatalf("lines=%d k=%d cellLog=%d: SpatialLineCheck(%#x) = %d, spec %d", lines, k, cellLog, h, one, spec)
		}
	}
	if hits != want {
		t.Fatalf("%v lines=%d k=%d cellLog=%d n=%d: hits %d, want %d", level, lines, k, cellLog, len(hs), hits, want)
	}
}

// TestSpatialLineCheckHashes: batch and single-key line-local checks
// answer as the specification at every level, for every width, k on
// both sides of one word of probes (9, 10 and 12), and the batch sizes
// around the vector widths.
func TestSpatialLineCheckHashes(t *testing.T) {
	sizes := []int{0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000}
	forEachLevel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(11, 12))
		for _, w := range spatialCellLogs {
			for _, lines := range []uint64{1, 2, 3, 97} {
				for _, zeros := range []float64{0.05, 0.5} {
					cells := lineCellsForTest(r, lines, w.cellLog, w.areas, zeros)
					for _, k := range []uint32{1, 2, 7, 9, 10, 12, 13, 25, 64} {
						for _, n := range sizes {
							checkLineAgainstSpec(t, cells, lines, k, w.cellLog, randomHashes(r, n))
						}
					}
				}
			}
		}
	})
}

// TestSpatialLineProbes: every probe stays in the key's line, the line is
// Reduce(h, lines), and over many hashes each in-line position is used
// about equally (a chi-square bound) at every probe index.
func TestSpatialLineProbes(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, w := range spatialCellLogs {
		c := SpatialLineCells(w.cellLog)
		const lines, k, n = 1000, 16, 200000
		counts := make([][]float64, k)
		for i := range counts {
			counts[i] = make([]float64, c)
		}
		ps := make([]uint64, k)
		for range n {
			h := r.Uint64()
			SpatialLineProbes(h, lines, k, w.cellLog, ps)
			line := spatialProbe(h, 0, lines)
			for i, p := range ps {
				if p/c != line {
					t.Fatalf("cellLog %d: probe %d of %#x in line %d, want %d", w.cellLog, i, h, p/c, line)
				}
				counts[i][p%c]++
			}
		}
		for i, cs := range counts {
			chi := 0.0
			for _, o := range cs {
				e := float64(n) / float64(c)
				chi += (o - e) * (o - e) / e
			}
			// c-1 degrees of freedom: mean c-1, sd sqrt(2(c-1)); 5 sd.
			if lim := float64(c-1) + 5*math.Sqrt(2*float64(c-1)); chi > lim {
				t.Errorf("cellLog %d probe %d: chi-square %.1f above %.1f", w.cellLog, i, chi, lim)
			}
		}
	}
}

// TestSpatialLineCheckHashesBounds: too few lines, a misaligned array, a
// bad width or k, or a short out is refused.
func TestSpatialLineCheckHashesBounds(t *testing.T) {
	refused := func(f func()) (r bool) {
		defer func() { r = recover() != nil }()
		f()
		return false
	}
	cells := lineArrayForTest(4)
	hs, out := []uint64{1, ^uint64(0)}, make([]uint16, 2)
	if refused(func() { SpatialLineCheckHashes(cells, 4, 7, 2, hs, out) }) {
		t.Error("4 lines in 256 bytes refused")
	}
	for name, f := range map[string]func(){
		"5 lines":    func() { SpatialLineCheckHashes(cells, 5, 7, 2, hs, out) },
		"0 lines":    func() { SpatialLineCheckHashes(cells, 0, 7, 2, hs, out) },
		"k = 0":      func() { SpatialLineCheckHashes(cells, 4, 0, 2, hs, out) },
		"k = 65":     func() { SpatialLineCheckHashes(cells, 4, 65, 2, hs, out) },
		"cellLog 5":  func() { SpatialLineCheckHashes(cells, 4, 7, 5, hs, out) },
		"misaligned": func() { SpatialLineCheckHashes(lineArrayForTest(5)[2:258], 4, 7, 2, hs, out) },
		"short out":  func() { SpatialLineCheckHashes(cells, 4, 7, 2, hs, out[:1]) },
	} {
		if !refused(f) {
			t.Errorf("%s accepted", name)
		}
	}
}

// TestSpatialCheck: the single-key libSBF-layout check answers as the
// batch specification for every width and k.
func TestSpatialCheck(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, w := range spatialCellLogs {
		for _, m := range []uint64{1, 3, 1000, 1<<16 + 7} {
			cells := spatialCellsForTest(r, m, w.cellLog, w.areas, 0.2)
			words := (*uint32)(unsafe.Pointer(unsafe.SliceData(cells)))
			for _, k := range []uint32{1, 2, 7, 16} {
				hs := randomHashes(r, 300)
				out := make([]uint16, len(hs))
				spatialCheckHashesGeneric(cells, m, k, w.cellLog, hs, out)
				for i, h := range hs {
					want := uint16(0xffff)
					for j := range k {
						want = min(want, getSpatialCell(cells, spatialProbe(h, j, m), w.cellLog))
					}
					if got := SpatialCheck(words, m, k, w.cellLog, h); uint16(got) != want || out[i] != want {
						t.Fatalf("m=%d k=%d cellLog=%d: SpatialCheck %d, batch %d, want %d", m, k, w.cellLog, got, out[i], want)
					}
				}
			}
		}
	}
}

func FuzzSpatialLineCheckHashes(f *testing.F) {
	f.Add(uint64(1), uint64(10), uint8(7), uint8(0), 0.1, 17)
	f.Add(uint64(2), uint64(1), uint8(12), uint8(2), 0.0, 64)
	f.Add(uint64(3), uint64(99), uint8(40), uint8(1), 0.3, 33)
	fuzzSpatialKernel(f, 300, 64, lineCellsForTest, checkLineAgainstSpec)
}
