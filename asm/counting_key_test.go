package asm

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/cpulevel"
)

// countingKeyProbe returns the probe of a counting filter of lines lines
// (k probes, 8-bit counters if wide) holding members (keys hashed with
// seed) and perLine random hashes a line. Every counter a key raises
// from zero gets a random nonzero value, most with the low bit clear,
// so a test that reads the wrong bits of a counter is caught.
func countingKeyProbe(r *rand.Rand, lines uint64, k uint32, wide bool, seed uint64, members [][]byte, perLine int) CountingProbe {
	words := make([]uint64, lines*CountingLineWords)
	p := NewCountingProbe(words, lines, k, wide, seed)
	raise := func(h uint64) {
		line := words[NarrowBlock(h, lines)*CountingLineWords:]
		pos := NarrowPositions(h, k, CountingLogBits(wide))
		for _, q := range pos[:k] {
			word, shift := countingPlace(uint64(q), wide)
			counter := uint64(0xf)
			if wide {
				counter = 0xff
			}
			if line[word]>>shift&counter == 0 {
				v := uint64(1) << r.IntN(4)
				if wide {
					v = uint64(1) << r.IntN(8)
				}
				if r.IntN(4) == 0 {
					v = counter
				}
				line[word] |= v << shift
			}
		}
	}
	for range int(lines) * perLine {
		raise(r.Uint64())
	}
	for _, key := range members {
		raise(p.Hash(key))
	}
	return p
}

// compareCountingKey checks the single-key kernels at the current level
// on one probe and key against their Generic twins and the twins
// against countingTestSpec, read straight off the layout.
func compareCountingKey(t testing.TB, p *CountingProbe, key []byte) {
	t.Helper()
	h := p.Hash(key)
	want := countingTestSpec(p.Words, p.Lines, p.K, p.Wide, h)
	if got := countingTestKeyGeneric(probeAddr(p), key); got != want {
		t.Fatalf("lines=%d k=%d wide=%v key=%x: countingTestKeyGeneric = %v, spec %v", p.Lines, p.K, p.Wide, key, got, want)
	}
	if got := CountingTestKey(p, key); got != want {
		t.Fatalf("%s: lines=%d k=%d wide=%v key=%x: CountingTestKey = %v, generic %v", Kernel(), p.Lines, p.K, p.Wide, key, got, want)
	}
	if got := CountingTestHash(p, h); got != want {
		t.Fatalf("%s: lines=%d k=%d wide=%v h=%#x: CountingTestHash = %v, generic %v", Kernel(), p.Lines, p.K, p.Wide, h, got, want)
	}
	if len(key) != 8 {
		return
	}
	u := binary.LittleEndian.Uint64(key)
	if got := CountingTestUint64(p, u); got != want {
		t.Fatalf("%s: lines=%d k=%d wide=%v key=%#x: CountingTestUint64 = %v, generic %v", Kernel(), p.Lines, p.K, p.Wide, u, got, want)
	}
}

func randomKey(r *rand.Rand, n int) []byte {
	key := make([]byte, n)
	for i := range key {
		key[i] = byte(r.Uint32())
	}
	return key
}

// Every key length 0..33 (8 most often), k 1..16, both counter widths,
// line counts and fills from empty to nearly every counter nonzero, on
// every level; half the keys are members, and every member tests present.
func TestCountingKeyKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	var present, absent int
	forEachLevel(t, func(t *testing.T) {
		for _, lines := range []uint64{1, 2, 3, 64, 1000} {
			for k := uint32(1); k <= 16; k++ {
				for _, wide := range []bool{false, true} {
					for _, perLine := range []int{0, 4, 12, 40} {
						keys := make([][]byte, 24)
						for i := range keys {
							n := 8
							if i%3 == 0 {
								n = r.IntN(34)
							}
							keys[i] = randomKey(r, n)
						}
						p := countingKeyProbe(r, lines, k, wide, r.Uint64(), keys[:12], perLine)
						for i, key := range keys {
							compareCountingKey(t, &p, key)
							switch {
							case i < 12 && !CountingTestKey(&p, key):
								t.Fatalf("%s: lines=%d k=%d wide=%v: member %x tests absent", Kernel(), lines, k, wide, key)
							case CountingTestKey(&p, key):
								present++
							default:
								absent++
							}
						}
					}
				}
			}
		}
	})
	if present == 0 || absent == 0 {
		t.Fatalf("%d keys present, %d absent: the test does not see both answers", present, absent)
	}
}

// The zero probe panics with the zero Filter's message at every level,
// whatever the key, from every test and update kernel.
func TestCountingKernelsZero(t *testing.T) {
	key := []byte("12345678")
	forEachLevel(t, func(t *testing.T) {
		var p CountingProbe
		for _, call := range []func(){
			func() { CountingTestKey(&p, key) }, func() { CountingTestKey(&p, nil) },
			func() { CountingTestUint64(&p, 7) }, func() { CountingTestHash(&p, 7) },
			func() { CountingAddKey(&p, key) }, func() { CountingAddUint64(&p, 7) }, func() { CountingAddHash(&p, 7) },
			func() { CountingTestAndAddKey(&p, nil) }, func() { CountingTestAndAddUint64(&p, 7) }, func() { CountingTestAndAddHash(&p, 7) },
			func() { CountingRemoveKey(&p, key) }, func() { CountingRemoveUint64(&p, 7) }, func() { CountingRemoveHash(&p, 7) },
		} {
			func() {
				defer func() {
					if r := recover(); r != countingZero {
						t.Fatalf("a kernel on the zero probe panicked with %v, want %q", r, countingZero)
					}
				}()
				call()
			}()
		}
	})
}

// NewCountingProbe refuses words shorter than its lines and k outside
// [1, engine.MaxK], and takes the kernels' round only for 4-bit counters
// and k <= 9.
func TestNewCountingProbe(t *testing.T) {
	for _, bad := range []func(){
		func() { NewCountingProbe(make([]uint64, 15), 2, 6, false, 0) },
		func() { NewCountingProbe(make([]uint64, 8), 1, 0, false, 0) },
		func() { NewCountingProbe(make([]uint64, 8), 1, engine.MaxK+1, true, 0) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Fatal("NewCountingProbe took a bad geometry")
				}
			}()
			bad()
		}()
	}
	for _, c := range []struct {
		k      uint32
		wide   bool
		round4 uint32
	}{{1, false, 1}, {6, false, 6}, {9, false, 9}, {10, false, 0}, {6, true, 0}, {10, true, 0}} {
		if p := NewCountingProbe(make([]uint64, 8), 1, c.k, c.wide, 0); p.Round4 != c.round4 {
			t.Errorf("k=%d wide=%v: Round4 = %d, want %d", c.k, c.wide, p.Round4, c.round4)
		}
	}
}

// No test or update kernel allocates, at any level.
func TestCountingKernelsDoNotAllocate(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	p := countingKeyProbe(r, 100, 6, false, 9, nil, 12)
	key := []byte("abcdefgh")
	forEachLevel(t, func(t *testing.T) {
		if n := testing.AllocsPerRun(100, func() {
			CountingTestKey(&p, key)
			CountingTestUint64(&p, 5)
			CountingTestHash(&p, 5)
			CountingAddKey(&p, key)
			CountingTestAndAddUint64(&p, 5)
			CountingRemoveHash(&p, 5)
		}); n != 0 {
			t.Fatalf("%v allocations", n)
		}
	})
}

func FuzzCountingKey(f *testing.F) {
	f.Add(uint8(6), uint16(3), uint8(12), false, uint64(1), []byte("01234567"))
	f.Add(uint8(9), uint16(1), uint8(40), false, uint64(0), []byte("x"))
	f.Add(uint8(5), uint16(100), uint8(8), true, uint64(2), []byte("01234567"))
	f.Fuzz(func(t *testing.T, k8 uint8, lines uint16, fill uint8, wide bool, seed uint64, key []byte) {
		k := uint32(k8)%16 + 1
		r := rand.New(rand.NewPCG(uint64(lines), uint64(fill)))
		var members [][]byte
		if fill&1 == 1 {
			members = [][]byte{key}
		}
		p := countingKeyProbe(r, uint64(lines%300)+1, k, wide, seed, members, int(fill%48))
		for _, l := range cpulevel.Available() {
			restore, err := cpulevel.Use(l)
			if err != nil {
				t.Fatal(err)
			}
			compareCountingKey(t, &p, key)
			if members != nil && !CountingTestKey(&p, key) {
				t.Fatalf("%s: member %x tests absent", Kernel(), key)
			}
			restore()
		}
	})
}
