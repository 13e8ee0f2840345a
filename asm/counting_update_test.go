package asm

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/internal/cpulevel"
)

// countingUpdateSpec is a plain update read straight off the layout, probe
// by probe (NarrowPositions, countingPlace): add raises each counter below
// its maximum and reports whether all were nonzero before; remove reports
// false and changes nothing when one is zero, else lowers each counter
// that is neither zero nor at its maximum.
func countingUpdateSpec(words []uint64, lines uint64, k uint32, wide bool, h uint64, remove bool) bool {
	line := words[NarrowBlock(h, lines)*CountingLineWords:][:CountingLineWords]
	pos := NarrowPositions(h, k, CountingLogBits(wide))
	max := uint64(0xf)
	if wide {
		max = 0xff
	}
	ok := countingTestSpec(words, lines, k, wide, h)
	if remove && !ok {
		return false
	}
	for _, q := range pos[:k] {
		w, sh := countingPlace(uint64(q), wide)
		switch c := line[w] >> sh & max; {
		case !remove && c != max:
			line[w] += 1 << sh
		case remove && c != 0 && c != max:
			line[w] -= 1 << sh
		}
	}
	return ok
}

// countingUpdateProbe returns the probe of a counting filter of lines
// lines (k probes, 8-bit counters if wide, the given seed) whose counters
// are zero with probability 1-fill and otherwise 1, 2, a random value,
// max-1 or max; the counters of each key of keys then all get one of 0,
// 1, max-1 or max a time in four, so duplicated probes meet counters at
// 14 and 15 (254 and 255).
func countingUpdateProbe(r *rand.Rand, lines uint64, k uint32, wide bool, seed uint64, fill float64, keys [][]byte) CountingProbe {
	words := make([]uint64, lines*CountingLineWords)
	p := NewCountingProbe(words, lines, k, wide, seed)
	max := uint64(0xf)
	if wide {
		max = 0xff
	}
	n := lines * (1 << CountingLogBits(wide))
	set := func(q uint64, v uint64) {
		var w, sh uint64
		if wide {
			w, sh = q>>3, (q&7)<<3
		} else {
			w, sh = q>>4, (q&15)<<2
		}
		words[w] = words[w]&^(max<<sh) | v<<sh
	}
	for q := range n {
		if r.Float64() < fill {
			set(q, []uint64{1, 2, r.Uint64N(max + 1), max - 1, max}[r.IntN(5)])
		}
	}
	for _, key := range keys {
		if r.IntN(4) != 0 {
			continue
		}
		h := p.Hash(key)
		v := []uint64{0, 1, max - 1, max}[r.IntN(4)]
		pos := NarrowPositions(h, k, CountingLogBits(wide))
		for _, q := range pos[:k] {
			set(NarrowBlock(h, lines)*(1<<CountingLogBits(wide))+uint64(q), v)
		}
	}
	return p
}

// withWords returns p on a copy of its counters.
func withWords(p *CountingProbe) *CountingProbe {
	q := *p
	q.Words = slices.Clone(p.Words)
	return &q
}

// compareCountingUpdate runs every form of the update kernels at the
// current level on copies of p's counters for key, and holds each answer
// and the counters after it to the Generic twin's and to
// countingUpdateSpec's.
func compareCountingUpdate(t testing.TB, p *CountingProbe, key []byte) {
	t.Helper()
	h := p.Hash(key)
	u, is8 := uint64(0), len(key) == 8
	if is8 {
		u = binary.LittleEndian.Uint64(key)
	}
	type form struct {
		name   string
		remove bool
		run    func(q *CountingProbe) bool
	}
	forms := []form{
		{"AddKey", false, func(q *CountingProbe) bool { CountingAddKey(q, key); return true }},
		{"AddHash", false, func(q *CountingProbe) bool { CountingAddHash(q, h); return true }},
		{"TestAndAddKey", false, func(q *CountingProbe) bool { return CountingTestAndAddKey(q, key) }},
		{"TestAndAddHash", false, func(q *CountingProbe) bool { return CountingTestAndAddHash(q, h) }},
		{"RemoveKey", true, func(q *CountingProbe) bool { return CountingRemoveKey(q, key) }},
		{"RemoveHash", true, func(q *CountingProbe) bool { return CountingRemoveHash(q, h) }},
	}
	if is8 {
		forms = append(forms,
			form{"AddUint64", false, func(q *CountingProbe) bool { CountingAddUint64(q, u); return true }},
			form{"TestAndAddUint64", false, func(q *CountingProbe) bool { return CountingTestAndAddUint64(q, u) }},
			form{"RemoveUint64", true, func(q *CountingProbe) bool { return CountingRemoveUint64(q, u) }})
	}
	spec := withWords(p)
	want := countingUpdateSpec(spec.Words, p.Lines, p.K, p.Wide, h, false)
	specRemove := withWords(p)
	wantRemove := countingUpdateSpec(specRemove.Words, p.Lines, p.K, p.Wide, h, true)
	generic := map[bool]func(q *CountingProbe) bool{
		false: func(q *CountingProbe) bool { return countingTestAndAddHashGeneric(probeAddr(q), h) },
		true:  func(q *CountingProbe) bool { return countingRemoveHashGeneric(probeAddr(q), h) },
	}
	for _, remove := range []bool{false, true} {
		g := withWords(p)
		got, w, ws := generic[remove](g), want, spec
		if remove {
			w, ws = wantRemove, specRemove
		}
		if got != w || !slices.Equal(g.Words, ws.Words) {
			t.Fatalf("lines=%d k=%d wide=%v key=%x remove=%v: Generic twin = %v, spec %v (counters equal: %v)", p.Lines, p.K, p.Wide, key, remove, got, w, slices.Equal(g.Words, ws.Words))
		}
	}
	for _, f := range forms {
		q := withWords(p)
		got := f.run(q)
		w, ws := want, spec
		if f.remove {
			w, ws = wantRemove, specRemove
		}
		if f.name[:3] == "Add" {
			w = true
		}
		if got != w || !slices.Equal(q.Words, ws.Words) {
			t.Fatalf("%s: lines=%d k=%d wide=%v key=%x: Counting%s = %v, spec %v (counters equal: %v)", Kernel(), p.Lines, p.K, p.Wide, key, f.name, got, w, slices.Equal(q.Words, ws.Words))
		}
	}
}

// Every key length 0..33 (8 most often), k 1..16, both counter widths,
// line counts and fills from empty to saturated, counters of keys set to
// 0, 1, max-1 and max (duplicated probes included), on every level: each
// update form leaves the counters and answers as its twin and the spec.
func TestCountingUpdateKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	forEachLevel(t, func(t *testing.T) {
		for _, lines := range []uint64{1, 2, 3, 64, 1000} {
			for k := uint32(1); k <= 16; k++ {
				for _, wide := range []bool{false, true} {
					for _, fill := range []float64{0, 0.1, 0.5, 0.9, 1} {
						keys := make([][]byte, 16)
						for i := range keys {
							n := 8
							if i%3 == 0 {
								n = r.IntN(34)
							}
							keys[i] = randomKey(r, n)
						}
						p := countingUpdateProbe(r, lines, k, wide, r.Uint64(), fill, keys)
						for _, key := range keys {
							compareCountingUpdate(t, &p, key)
						}
					}
				}
			}
		}
	})
}

// A key added d times over raises its counters to min(c+d, max) and
// tests present, and removing it d times lowers them again, counters at
// the maximum excepted: a run of updates, not one, through each level.
func TestCountingUpdateRuns(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 44))
	forEachLevel(t, func(t *testing.T) {
		for _, k := range []uint32{1, 6, 9, 10, 16} {
			p := NewCountingProbe(make([]uint64, 4*CountingLineWords), 4, k, false, 5)
			spec := withWords(&p)
			for i := range 3000 {
				key := randomKey(r, 8)
				key[0] = byte(i % 24) // few keys, many repeats: counters saturate
				key[1], key[2], key[3], key[4], key[5], key[6], key[7] = 0, 0, 0, 0, 0, 0, 0
				h := p.Hash(key)
				remove := r.IntN(3) == 0
				var got bool
				if remove {
					got = CountingRemoveKey(&p, key)
				} else {
					got = CountingTestAndAddKey(&p, key)
				}
				if want := countingUpdateSpec(spec.Words, p.Lines, k, false, h, remove); got != want || !slices.Equal(p.Words, spec.Words) {
					t.Fatalf("%s: k=%d step %d remove=%v: %v, spec %v", Kernel(), k, i, remove, got, want)
				}
			}
		}
	})
}

func FuzzCountingUpdate(f *testing.F) {
	f.Add(uint8(6), uint16(3), uint8(128), false, uint64(1), []byte("01234567"))
	f.Add(uint8(9), uint16(1), uint8(255), false, uint64(0), []byte("x"))
	f.Add(uint8(5), uint16(100), uint8(8), true, uint64(2), []byte("01234567"))
	f.Fuzz(func(t *testing.T, k8 uint8, lines uint16, fill uint8, wide bool, seed uint64, key []byte) {
		k := uint32(k8)%16 + 1
		r := rand.New(rand.NewPCG(uint64(lines), uint64(fill)))
		p := countingUpdateProbe(r, uint64(lines%300)+1, k, wide, seed, float64(fill)/255, [][]byte{key})
		for _, l := range cpulevel.Available() {
			restore, err := cpulevel.Use(l)
			if err != nil {
				t.Fatal(err)
			}
			compareCountingUpdate(t, &p, key)
			restore()
		}
	})
}
