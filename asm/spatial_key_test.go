package asm

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/cpulevel"
)

// spatialProbeOf returns a probe over random cells: lines 64-byte lines
// of the line-local layout, or with lines = 0 libSBF's layout over the
// same number of cells.
func spatialProbeOf(r *rand.Rand, lines uint64, line bool, k uint32, cellLog uint, zeros int, seed uint64) SpatialProbe {
	words := make([]uint32, lines*16+2) // the padding SpatialCheck reads
	for i := range words[:lines*16] {
		w := r.Uint32()
		for range zeros { // more empty cells: absent keys and small areas
			w &= r.Uint32()
		}
		words[i] = w
	}
	m := lines * SpatialLineCells(cellLog)
	if !line {
		lines = 0
	}
	return NewSpatialProbe(words, m, lines, k, cellLog, seed)
}

// compareSpatialKey checks the single-key kernels at the current level
// against their Generic twins and the twins against the hash-level check.
func compareSpatialKey(t testing.TB, p *SpatialProbe, key []byte) {
	t.Helper()
	h := engine.HashSeed(key, p.Seed)
	var want uint32
	if p.Lines != 0 {
		want = SpatialLineCheck(&p.Words[0], p.Lines, p.K, p.CellLog, h)
	} else {
		want = SpatialCheck(&p.Words[0], p.M, p.K, p.CellLog, h)
	}
	if got := spatialCheckKeyGeneric(probeAddr(p), key); got != want {
		t.Fatalf("k=%d key=%x: spatialCheckKeyGeneric = %d, want %d", p.K, key, got, want)
	}
	if got := SpatialCheckKey(p, key); got != want {
		t.Fatalf("%s: lines=%d k=%d cellLog=%d key=%x: SpatialCheckKey = %d, generic %d", Kernel(), p.Lines, p.K, p.CellLog, key, got, want)
	}
	if len(key) == 8 {
		if got := SpatialCheckUint64(p, binary.LittleEndian.Uint64(key)); got != want {
			t.Fatalf("%s: k=%d key=%x: SpatialCheckUint64 = %d, want %d", Kernel(), p.K, key, got, want)
		}
	}
}

func TestSpatialKeyKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	forEachLevel(t, func(t *testing.T) {
		for _, lines := range []uint64{1, 3, 100, 5000} {
			for _, line := range []bool{true, false} {
				for cellLog := uint(2); cellLog <= 4; cellLog++ {
					for _, k := range []uint32{1, 2, 5, 7, 8, 9, 12} {
						for _, zeros := range []int{0, 1, 3} {
							p := spatialProbeOf(r, lines, line, k, cellLog, zeros, r.Uint64())
							for range 30 {
								key := make([]byte, keyLengths[r.IntN(len(keyLengths))])
								for i := range key {
									key[i] = byte(r.Uint32())
								}
								compareSpatialKey(t, &p, key)
							}
						}
					}
				}
			}
		}
	})
}

// A probe without cells panics with the zero Filter's message at every
// level.
func TestSpatialKeyZero(t *testing.T) {
	forEachLevel(t, func(t *testing.T) {
		var p SpatialProbe
		for _, read := range []func(){
			func() { SpatialCheckKey(&p, []byte("12345678")) },
			func() { SpatialCheckUint64(&p, 7) },
		} {
			func() {
				defer func() {
					if r := recover(); r != spatialZero {
						t.Fatalf("a read without cells panicked with %v, want %q", r, spatialZero)
					}
				}()
				read()
			}()
		}
	})
}

func FuzzSpatialKey(f *testing.F) {
	f.Add(uint16(10), true, uint8(0), uint8(6), uint8(1), uint64(1), []byte("01234567"))
	f.Add(uint16(1), false, uint8(2), uint8(9), uint8(0), uint64(0), []byte("x"))
	f.Fuzz(func(t *testing.T, lines uint16, line bool, cl, k8, zeros uint8, seed uint64, key []byte) {
		p := spatialProbeOf(rand.New(rand.NewPCG(uint64(lines), seed)), uint64(lines%2000)+1, line,
			uint32(k8)%16+1, uint(cl%3)+2, int(zeros%4), seed)
		for _, l := range cpulevel.Available() {
			restore, err := cpulevel.Use(l)
			if err != nil {
				t.Fatal(err)
			}
			compareSpatialKey(t, &p, key)
			restore()
		}
	})
}
