package asm

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/cpulevel"
	"github.com/filterengine/filterengine/internal/hashing"
)

// shiftingProbeOf returns a probe over random words for m positions, k
// probes and, if m2 > 0, a second array of m2 bits.
func shiftingProbeOf(r *rand.Rand, m, m2 uint64, k uint32, fill int, seed uint64) ShiftingProbe {
	base2 := (m-1)/64 + 2
	words := randomFilter(r, int(base2+(m2+63)/64+7)/8, fill)[:base2+(m2+63)/64]
	return ShiftingProbe{Words: words, M: m, M2: m2, Base2: base2, Seed: seed, Key: hashing.Uint64Key(seed), K: k}
}

// compareShiftingKey checks the single-key kernels at the current level
// against their Generic twins and the twins against the hash-level test.
func compareShiftingKey(t testing.TB, p *ShiftingProbe, key []byte) {
	t.Helper()
	h := engine.HashSeed(key, p.Seed)
	want := ShiftingTestHash(p.Words, p.M, p.K/2, h) && (p.M2 == 0 || p.SecondHas(h))
	if got := shiftingTestKeyGeneric(probeAddr(p), key); got != want {
		t.Fatalf("m=%d k=%d key=%x: shiftingTestKeyGeneric = %v, ShiftingTestHash %v", p.M, p.K, key, got, want)
	}
	if got := ShiftingTestKey(p, key); got != want {
		t.Fatalf("%s: m=%d m2=%d k=%d key=%x: ShiftingTestKey = %v, generic %v", Kernel(), p.M, p.M2, p.K, key, got, want)
	}
	if len(key) == 8 {
		if got := ShiftingTestUint64(p, binary.LittleEndian.Uint64(key)); got != want {
			t.Fatalf("%s: m=%d k=%d key=%x: ShiftingTestUint64 = %v, want %v", Kernel(), p.M, p.K, key, got, want)
		}
	}
}

func TestShiftingKeyKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	forEachLevel(t, func(t *testing.T) {
		for _, m := range []uint64{1, 63, 64, 65, 1000, 1 << 16} {
			for _, m2 := range []uint64{0, 0, 100} {
				for _, k := range []uint32{2, 4, 6, 8, 16} {
					for _, fill := range []int{5, 7, 8} {
						p := shiftingProbeOf(r, m, m2, k, fill, r.Uint64())
						for range 40 {
							key := make([]byte, keyLengths[r.IntN(len(keyLengths))])
							for i := range key {
								key[i] = byte(r.Uint32())
							}
							compareShiftingKey(t, &p, key)
						}
					}
				}
			}
		}
	})
}

// A probe without words panics with the zero Filter's message at every
// level, whatever the key.
func TestShiftingKeyZero(t *testing.T) {
	forEachLevel(t, func(t *testing.T) {
		var p ShiftingProbe
		for _, read := range []func(){
			func() { ShiftingTestKey(&p, []byte("12345678")) },
			func() { ShiftingTestKey(&p, nil) },
			func() { ShiftingTestUint64(&p, 7) },
		} {
			func() {
				defer func() {
					if r := recover(); r != shiftingZero {
						t.Fatalf("a read without words panicked with %v, want %q", r, shiftingZero)
					}
				}()
				read()
			}()
		}
	})
}

func FuzzShiftingKey(f *testing.F) {
	f.Add(uint64(1000), uint64(0), uint8(3), uint8(7), uint64(1), []byte("01234567"))
	f.Add(uint64(64), uint64(64), uint8(1), uint8(8), uint64(0), []byte("x"))
	f.Fuzz(func(t *testing.T, m, m2 uint64, pairs, fill uint8, seed uint64, key []byte) {
		m, m2 = m%5000+1, m2%300
		p := shiftingProbeOf(rand.New(rand.NewPCG(m, m2)), m, m2, 2*(uint32(pairs)%16+1), int(fill%9), seed)
		for _, l := range cpulevel.Available() {
			restore, err := cpulevel.Use(l)
			if err != nil {
				t.Fatal(err)
			}
			compareShiftingKey(t, &p, key)
			restore()
		}
	})
}
