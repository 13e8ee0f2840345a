package asm

import (
	"math/rand/v2"
	"testing"
)

// spatialCellsForTest returns m random cells of 1<<shift bytes with
// values in [0, areas], the given fraction of them zero, plus padding.
func spatialCellsForTest(r *rand.Rand, m uint64, shift uint, areas int, zeros float64) []byte {
	cells := make([]byte, m<<shift+SpatialPad)
	for i := uint64(0); i < m; i++ {
		v := 0
		if r.Float64() >= zeros {
			v = 1 + r.IntN(areas)
		}
		cells[i<<shift] = byte(v)
		if shift == 1 {
			cells[i<<1+1] = byte(v >> 8)
		}
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
func checkSpatialAgainstGeneric(t *testing.T, cells []byte, m uint64, k uint32, shift uint, hs []uint64) {
	t.Helper()
	got := make([]uint16, len(hs))
	want := make([]uint16, len(hs))
	gotHits := SpatialCheckHashes(cells, m, k, shift, hs, got)
	wantHits := spatialCheckHashesGeneric(cells, m, k, shift, hs, want)
	if gotHits != wantHits {
		t.Fatalf("%v m=%d k=%d shift=%d n=%d: hits %d, generic %d", Current(), m, k, shift, len(hs), gotHits, wantHits)
	}
	for i := range hs {
		if got[i] != want[i] {
			t.Fatalf("%v m=%d k=%d shift=%d n=%d: out[%d] = %d, generic %d", Current(), m, k, shift, len(hs), i, got[i], want[i])
		}
	}
}

func TestSpatialCheckHashes(t *testing.T) {
	sizes := []int{0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000}
	forEachLevel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		for _, shift := range []uint{0, 1} {
			areas := 255
			if shift == 1 {
				areas = 65535
			}
			for _, m := range []uint64{1, 2, 3, 61, 1000, 1<<16 + 7} {
				for _, zeros := range []float64{0.05, 0.5} {
					cells := spatialCellsForTest(r, m, shift, areas, zeros)
					for _, k := range []uint32{1, 2, 7, 16} {
						for _, n := range sizes {
							checkSpatialAgainstGeneric(t, cells, m, k, shift, randomHashes(r, n))
						}
					}
				}
			}
		}
	})
}

// TestSpatialCheckHashesLargeArray probes a 2^26-cell array (64 MiB of
// 8-bit cells, 128 MiB of 16-bit) where only the probed cells are set, each
// to a value derived from its index, so a kernel reading a neighbouring
// cell answers 0 or a different label. Hashes include the extremes whose
// probes land on the first and last cells, where a gather reads padding.
func TestSpatialCheckHashesLargeArray(t *testing.T) {
	const m = 1<<26 - 3
	r := rand.New(rand.NewPCG(3, 4))
	hs := append([]uint64{0, ^uint64(0), 1 << 63, ^uint64(0) >> 1, 0xffffffff00000000, 0x00000000ffffffff, 1, 2}, randomHashes(r, 200)...)
	for _, shift := range []uint{0, 1} {
		cells := make([]byte, m<<shift+SpatialPad)
		for _, h := range hs {
			for i := uint32(0); i < 5; i++ {
				p := SpatialProbe(h, i, m)
				v := p%250 + 1
				cells[p<<shift] = byte(v)
				if shift == 1 {
					cells[p<<1+1] = byte(p >> 8)
				}
			}
		}
		forEachLevel(t, func(t *testing.T) {
			checkSpatialAgainstGeneric(t, cells, m, 5, shift, hs)
			checkSpatialAgainstGeneric(t, cells, m, 1, shift, hs[:16])
			out := make([]uint16, len(hs))
			if hits := SpatialCheckHashes(cells, m, 5, shift, hs, out); hits != len(hs) {
				t.Errorf("shift %d: %d of %d keys found, all probed cells are set", shift, hits, len(hs))
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
			if want := SpatialProbe(g, 0, m); split != want {
				t.Fatalf("m=%d g=%#x: split reduce %d, multiply-high %d", m, g, split, want)
			}
		}
	}
}

func TestSpatialCheckHashesAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	cells := spatialCellsForTest(r, 4096, 0, 10, 0.1)
	hs := randomHashes(r, 1000)
	out := make([]uint16, len(hs))
	forEachLevel(t, func(t *testing.T) {
		if a := testing.AllocsPerRun(10, func() { SpatialCheckHashes(cells, 4096, 7, 0, hs, out) }); a != 0 {
			t.Errorf("SpatialCheckHashes allocates %v times per batch", a)
		}
	})
}

func TestSpatialCheckHashesLargeArrayIsGeneric(t *testing.T) {
	// m >= 2^32 cannot be tested with a real array here; the contract is
	// enforced by the bounds check instead.
	defer func() {
		if recover() == nil {
			t.Error("SpatialCheckHashes accepted m larger than the cell array")
		}
	}()
	SpatialCheckHashes(make([]byte, 16), 13, 1, 0, []uint64{1}, make([]uint16, 1))
}

func FuzzSpatialCheckHashes(f *testing.F) {
	f.Add(uint64(1), uint64(1000), uint8(7), false, 0.1, 17)
	f.Add(uint64(2), uint64(3), uint8(1), true, 0.0, 64)
	f.Fuzz(func(t *testing.T, seed, m uint64, k uint8, wide bool, zeros float64, n int) {
		m = m%100000 + 1
		kk := uint32(k)%32 + 1
		n = int(uint(n) % 300)
		if !(zeros >= 0 && zeros <= 1) {
			zeros = 0.5
		}
		shift, areas := uint(0), 255
		if wide {
			shift, areas = 1, 65535
		}
		r := rand.New(rand.NewPCG(seed, m))
		cells := spatialCellsForTest(r, m, shift, areas, zeros)
		hs := randomHashes(r, n)
		for _, l := range Available() {
			restore, err := UseLevel(l)
			if err != nil {
				t.Fatal(err)
			}
			checkSpatialAgainstGeneric(t, cells, m, kk, shift, hs)
			restore()
		}
	})
}
