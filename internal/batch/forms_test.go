package batch

import (
	"testing"

	"github.com/filterengine/filterengine/engine"
)

// recorder is a family's hash kernel in miniature: it records the hashes
// it is given and answers hs[i] odd.
type recorder struct{ got []uint64 }

func (r *recorder) add(hs []uint64) { r.got = append(r.got, hs...) }

func (r *recorder) test(hs []uint64, out []bool) int {
	r.add(hs)
	hits := 0
	for i, h := range hs {
		out[i] = h&1 == 1
		if out[i] {
			hits++
		}
	}
	return hits
}

func TestForms(t *testing.T) {
	const seed = 11
	for _, n := range []int{0, 1, Chunk - 1, Chunk, Chunk + 1, 3*Chunk + 5} {
		keys := make([][]byte, n)
		ks := make([]uint64, n)
		fromKeys, fromInts := make([]uint64, n), make([]uint64, n)
		for i := range n {
			ks[i] = uint64(i) * 0x9e3779b97f4a7c15
			keys[i] = []byte{byte(i), byte(i >> 8), 'k'}
			fromKeys[i] = engine.HashSeed(keys[i], seed)
			fromInts[i] = engine.HashUint64Seed(ks[i], seed)
		}
		check := func(form string, got, want []uint64, out []bool, hits int) {
			t.Helper()
			if len(got) != len(want) {
				t.Fatalf("n=%d %s: kernel saw %d hashes, want %d", n, form, len(got), len(want))
			}
			odd := 0
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("n=%d %s: hash %d is %#x, want %#x", n, form, i, got[i], want[i])
				}
				if out != nil && out[i] != (want[i]&1 == 1) {
					t.Fatalf("n=%d %s: out[%d] = %v for hash %#x", n, form, i, out[i], want[i])
				}
				if want[i]&1 == 1 {
					odd++
				}
			}
			if out != nil && hits != odd {
				t.Fatalf("n=%d %s: %d hits, want %d", n, form, hits, odd)
			}
		}
		var r recorder
		AddKeys(r.add, keys, seed)
		check("AddKeys", r.got, fromKeys, nil, 0)
		r = recorder{}
		AddUint64s(r.add, ks, seed)
		check("AddUint64s", r.got, fromInts, nil, 0)
		r = recorder{}
		out := make([]bool, n)
		hits := TestKeys(r.test, keys, seed, out)
		check("TestKeys", r.got, fromKeys, out, hits)
		r = recorder{}
		hits = TestUint64s(r.test, ks, seed, out)
		check("TestUint64s", r.got, fromInts, out, hits)
	}
}

// sum is a kernel that keeps nothing, as every family's kernel does.
type sum struct{ total uint64 }

func (s *sum) add(hs []uint64) {
	for _, h := range hs {
		s.total += h
	}
}

func (s *sum) test(hs []uint64, out []bool) int {
	s.add(hs)
	return len(hs)
}

func TestFormsNoAllocs(t *testing.T) {
	keys := make([][]byte, 2*Chunk+3)
	for i := range keys {
		keys[i] = []byte{byte(i)}
	}
	ks := make([]uint64, 2*Chunk+3)
	out := make([]bool, len(ks))
	var s sum
	area := 3
	if a := testing.AllocsPerRun(50, func() {
		AddKeys(s.add, keys, 1)
		AddUint64s(s.add, ks, 1)
		AddUint64s(func(hs []uint64) { s.total += hs[0] * uint64(area) }, ks, 1)
		TestKeys(s.test, keys, 1, out)
		TestUint64s(s.test, ks, 1, out)
	}); a != 0 {
		t.Fatalf("%v allocations per run of the key forms, want 0", a)
	}
}
