package conformance

import (
	"math"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/fprstat"
)

// addForm adds a set of keys to f one way.
type addForm[T Membership[T]] struct {
	name string
	uint bool // takes integer keys
	add  func(f T, ks keySet)
}

// addForms returns every way to add keys, the *Concurrent ones when T has
// them.
func addForms[T Membership[T]](f T) []addForm[T] {
	forms := []addForm[T]{
		{"Add", false, func(f T, ks keySet) {
			for _, b := range ks.b {
				f.Add(b)
			}
		}},
		{"AddString", false, func(f T, ks keySet) {
			for _, s := range ks.s {
				f.AddString(s)
			}
		}},
		{"AddHash", false, func(f T, ks keySet) {
			for _, h := range ks.h {
				f.AddHash(h)
			}
		}},
		{"AddHashes", false, func(f T, ks keySet) {
			for _, r := range ranges(ks.len()) {
				f.AddHashes(ks.h[r[0]:r[1]])
			}
		}},
		{"AddKeys", false, func(f T, ks keySet) {
			for _, r := range ranges(ks.len()) {
				f.AddKeys(ks.b[r[0]:r[1]])
			}
		}},
		{"AddUint64", true, func(f T, ks keySet) {
			for _, u := range ks.u {
				f.AddUint64(u)
			}
		}},
		{"AddUint64s", true, func(f T, ks keySet) {
			for _, r := range ranges(ks.len()) {
				f.AddUint64s(ks.u[r[0]:r[1]])
			}
		}},
	}
	if _, ok := any(f).(Concurrent); ok {
		forms = append(forms,
			addForm[T]{"AddConcurrent", false, func(f T, ks keySet) {
				c := any(f).(Concurrent)
				for _, b := range ks.b {
					c.AddConcurrent(b)
				}
			}},
			addForm[T]{"AddHashConcurrent", false, func(f T, ks keySet) {
				c := any(f).(Concurrent)
				for _, h := range ks.h {
					c.AddHashConcurrent(h)
				}
			}},
			addForm[T]{"AddHashesConcurrent", false, func(f T, ks keySet) {
				c := any(f).(Concurrent)
				for _, r := range ranges(ks.len()) {
					c.AddHashesConcurrent(ks.h[r[0]:r[1]])
				}
			}},
			addForm[T]{"AddUint64sConcurrent", true, func(f T, ks keySet) {
				c := any(f).(Concurrent)
				for _, r := range ranges(ks.len()) {
					c.AddUint64sConcurrent(ks.u[r[0]:r[1]])
				}
			}})
	}
	return forms
}

// testForm answers, for each key of a set, whether f holds it.
type testForm[T Membership[T]] struct {
	name string
	uint bool // integer keys only
	test func(f T, ks keySet, out []bool)
}

// testForms returns every way to test keys, the *Concurrent ones when T
// has them. The batch forms go through batches with tails at every
// vector width.
func testForms[T Membership[T]](f T) []testForm[T] {
	each := func(n int, out []bool, fn func(i int) bool) {
		for i := range n {
			out[i] = fn(i)
		}
	}
	forms := []testForm[T]{
		{"Test", false, func(f T, ks keySet, out []bool) { each(ks.len(), out, func(i int) bool { return f.Test(ks.b[i]) }) }},
		{"TestString", false, func(f T, ks keySet, out []bool) {
			each(ks.len(), out, func(i int) bool { return f.TestString(ks.s[i]) })
		}},
		{"TestHash", false, func(f T, ks keySet, out []bool) {
			each(ks.len(), out, func(i int) bool { return f.TestHash(ks.h[i]) })
		}},
		{"TestUint64", true, func(f T, ks keySet, out []bool) {
			each(ks.len(), out, func(i int) bool { return f.TestUint64(ks.u[i]) })
		}},
		{"TestHashes", false, func(f T, ks keySet, out []bool) {
			for _, r := range ranges(ks.len()) {
				f.TestHashes(ks.h[r[0]:r[1]], out[r[0]:r[1]])
			}
		}},
		{"TestKeys", false, func(f T, ks keySet, out []bool) {
			for _, r := range ranges(ks.len()) {
				f.TestKeys(ks.b[r[0]:r[1]], out[r[0]:r[1]])
			}
		}},
		{"TestUint64s", true, func(f T, ks keySet, out []bool) {
			for _, r := range ranges(ks.len()) {
				f.TestUint64s(ks.u[r[0]:r[1]], out[r[0]:r[1]])
			}
		}},
	}
	if _, ok := any(f).(Concurrent); ok {
		forms = append(forms,
			testForm[T]{"TestConcurrent", false, func(f T, ks keySet, out []bool) {
				c := any(f).(Concurrent)
				each(ks.len(), out, func(i int) bool { return c.TestConcurrent(ks.b[i]) })
			}},
			testForm[T]{"TestHashConcurrent", false, func(f T, ks keySet, out []bool) {
				c := any(f).(Concurrent)
				each(ks.len(), out, func(i int) bool { return c.TestHashConcurrent(ks.h[i]) })
			}})
	}
	return forms
}

// allPresent fails t for every test form in which a key of sets is
// absent from f.
func (s *suite[T]) allPresent(t testing.TB, f T, what string, sets ...keySet) {
	t.Helper()
	for _, form := range testForms(f) {
		for _, ks := range sets {
			if form.uint && !ks.isU {
				continue
			}
			out := make([]bool, ks.len())
			form.test(f, ks, out)
			lost := 0
			first := -1
			for i, ok := range out {
				if !ok {
					lost++
					if first < 0 {
						first = i
					}
				}
			}
			if lost > 0 {
				t.Errorf("%s: %s: %d of %d keys absent in %s (first: key %d, %q): a false negative",
					s.fam.Name, what, lost, ks.len(), form.name, first, ks.b[first])
			}
		}
	}
}

// noFalseNegatives adds a share of the keys through every add form, with
// the default seed and another, and tests every key in every form.
func (s *suite[T]) noFalseNegatives(t *testing.T) {
	for _, seeded := range s.seedings() {
		var extra []engine.Option
		if seeded {
			extra = append(extra, engine.WithSeed(otherSeed))
		}
		f := s.new(t, n, p, extra...)
		g := s.keys(1, extra...)
		forms := addForms(f)
		var sets []keySet
		const share = 350
		for _, form := range forms {
			var ks keySet
			if form.uint {
				ks = g.uints(share)
			} else {
				ks = g.bytes(share)
			}
			form.add(f, ks)
			s.allPresent(t, f, "right after "+form.name, ks)
			sets = append(sets, ks)
		}
		// TestAndAdd and TestAndAddHash add too.
		ks := g.bytes(2 * share)
		for _, b := range ks.b[:share] {
			f.TestAndAdd(b)
		}
		for _, h := range ks.h[share:] {
			f.TestAndAddHash(h)
		}
		sets = append(sets, ks)
		// Integer keys through the byte forms and back.
		us := g.uints(share)
		for _, b := range us.b {
			f.Add(b)
		}
		sets = append(sets, us)
		s.allPresent(t, f, "after every add form", sets...)
		if t.Failed() {
			t.Logf("seeded: %v", seeded)
			return
		}
	}
}

// batchEqualsSingle compares every batch test with its single-key twin
// key by key, over lengths that leave tails at every vector width and
// cross the 256-key chunks, from unaligned starts, on a filter loaded to
// n keys.
func (s *suite[T]) batchEqualsSingle(t *testing.T) {
	for _, seeded := range s.seedings() {
		var extra []engine.Option
		if seeded {
			extra = append(extra, engine.WithSeed(otherSeed))
		}
		// A small filter loaded past its n, so that absent keys answer
		// present often enough to show a wrong bit.
		f := s.new(t, 500, 0.05, extra...)
		g := s.keys(2, extra...)
		inB, inU := g.mixed(250)
		f.AddKeys(inB.b)
		f.AddUint64s(inU.u)
		outB, outU := g.mixed(1200)
		// Queries: absent keys, then present and absent interleaved.
		mixB, mixU := interleave(outB.slice(0, 600), inB), interleave(outU.slice(0, 600), inU)
		for _, q := range []struct {
			name string
			b, u keySet
		}{{"absent", outB, outU}, {"mixed", mixB, mixU}} {
			s.compareBatch(t, f, q.name, q.b, q.u)
		}
		if t.Failed() {
			t.Logf("seeded: %v", seeded)
			return
		}
	}
}

// interleave returns a's and b's keys alternating, then the rest of a.
func interleave(a, b keySet) keySet {
	c := keySet{isU: a.isU, hash: a.hash}
	for i := range a.len() {
		c.b, c.s, c.h = append(c.b, a.b[i]), append(c.s, a.s[i]), append(c.h, a.h[i])
		if a.isU {
			c.u = append(c.u, a.u[i])
		}
		if i < b.len() {
			c.b, c.s, c.h = append(c.b, b.b[i]), append(c.s, b.s[i]), append(c.h, b.h[i])
			if a.isU {
				c.u = append(c.u, b.u[i])
			}
		}
	}
	return c
}

// batchLengths are the batch lengths compared: kerneltest.BatchLengths,
// the vector widths and their neighbours, and the 256-key chunk
// boundaries.
var batchLengths = []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 256, 257, 511, 513, 1000}

func (s *suite[T]) compareBatch(t *testing.T, f T, what string, kb, ku keySet) {
	t.Helper()
	// The single-key answers, each form against Test.
	want := make([]bool, kb.len())
	for i, b := range kb.b {
		want[i] = f.Test(b)
		if f.TestString(kb.s[i]) != want[i] || f.TestHash(kb.h[i]) != want[i] {
			t.Fatalf("%s: %s key %d: Test %v, TestString %v, TestHash %v", s.fam.Name, what, i, want[i], f.TestString(kb.s[i]), f.TestHash(kb.h[i]))
		}
	}
	wantU := make([]bool, ku.len())
	for i, u := range ku.u {
		wantU[i] = f.TestUint64(u)
		if f.Test(ku.b[i]) != wantU[i] {
			t.Fatalf("%s: %s integer key %d: TestUint64 %v but Test of its 8 little-endian bytes %v", s.fam.Name, what, i, wantU[i], !wantU[i])
		}
	}
	type batch struct {
		name string
		keys int
		want []bool
		call func(lo, hi int, out []bool) int
	}
	for _, bt := range []batch{
		{"TestHashes", kb.len(), want, func(lo, hi int, out []bool) int { return f.TestHashes(kb.h[lo:hi], out) }},
		{"TestKeys", kb.len(), want, func(lo, hi int, out []bool) int { return f.TestKeys(kb.b[lo:hi], out) }},
		{"TestUint64s", ku.len(), wantU, func(lo, hi int, out []bool) int { return f.TestUint64s(ku.u[lo:hi], out) }},
	} {
		buf := make([]bool, maxOut+2)
		for _, l := range batchLengths {
			for _, off := range []int{0, 1, 3} {
				if off+l > bt.keys {
					continue
				}
				w := bt.want[off : off+l]
				// out starts as the opposite of every answer, and one
				// slot past the keys holds a sentinel: every out[i]
				// must be written, nothing after.
				out := buf[:l+1]
				for i := range w {
					out[i] = !w[i]
				}
				out[l] = true
				hits := bt.call(off, off+l, out[:l+1])
				whits := 0
				for i := range w {
					if w[i] {
						whits++
					}
					if out[i] != w[i] {
						t.Fatalf("%s: %s on %s keys, length %d from %d: key %d answers %v, the single-key form %v", s.fam.Name, bt.name, what, l, off, i, out[i], w[i])
					}
				}
				if hits != whits {
					t.Fatalf("%s: %s on %s keys, length %d from %d: returned %d hits, out holds %d", s.fam.Name, bt.name, what, l, off, hits, whits)
				}
				if !out[l] {
					t.Fatalf("%s: %s on %s keys, length %d: wrote out[%d], past the keys", s.fam.Name, bt.name, what, l, l)
				}
			}
		}
	}
}

// addFormsAgree adds the same keys through every add form, each into a
// new filter, and wants the same bytes from all.
func (s *suite[T]) addFormsAgree(t *testing.T) {
	g := s.keys(3)
	kb := g.bytes(1500)
	ku := g.uints(1500)
	f := s.new(t, n, p)
	var ref, refU []byte
	for _, form := range addForms(f) {
		f := s.new(t, n, p)
		if form.uint {
			form.add(f, ku)
		} else {
			form.add(f, kb)
		}
		got := s.marshal(t, f)
		r := &ref
		if form.uint {
			r = &refU
		}
		if *r == nil {
			*r = got
			continue
		}
		if d := firstDiff(*r, got); d >= 0 {
			t.Errorf("%s: keys added with %s give other bytes than with %s (first difference at byte %d)", s.fam.Name, form.name, map[bool]string{false: "Add", true: "AddUint64"}[form.uint], d)
		}
	}
	// An integer key is its 8 little-endian bytes.
	f = s.new(t, n, p)
	for _, b := range ku.b {
		f.Add(b)
	}
	if d := firstDiff(refU, s.marshal(t, f)); d >= 0 {
		t.Errorf("%s: Add of 8 little-endian bytes gives other bytes than AddUint64 (first difference at byte %d)", s.fam.Name, d)
	}
}

// firstDiff returns the first index where a and b differ, or -1.
func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// testAndAdd checks that TestAndAdd and TestAndAddHash answer what Test
// answered just before, and leave the key present.
func (s *suite[T]) testAndAdd(t *testing.T) {
	f := s.new(t, 2000, p)
	g := s.keys(4)
	ks := g.bytes(2000)
	for i, b := range ks.b {
		before := f.Test(b)
		var got bool
		form := "TestAndAdd"
		if i%2 == 0 {
			got = f.TestAndAdd(b)
		} else {
			form = "TestAndAddHash"
			got = f.TestAndAddHash(ks.h[i])
		}
		if got != before {
			t.Fatalf("%s: %s of key %d answered %v, but Test just before answered %v", s.fam.Name, form, i, got, before)
		}
		if !f.Test(b) {
			t.Fatalf("%s: key %d absent after %s", s.fam.Name, i, form)
		}
		if !f.TestAndAdd(b) || !f.TestAndAddHash(ks.h[i]) {
			t.Fatalf("%s: key %d: a second TestAndAdd answered absent", s.fam.Name, i)
		}
	}
}

// absentKeys is how many absent keys the FPR check tests: at least 1e6.
const absentKeys = 1 << 20

// fpr measures the false-positive rate of a filter holding n keys on
// 2^20 absent ones and wants it within the 99.9% binomial bounds of the
// model.
func (s *suite[T]) fpr(t *testing.T) {
	const nk = 20000
	f := s.new(t, nk, p)
	g := s.keys(5)
	in := g.uints(nk)
	f.AddUint64s(in.u)
	// Absent keys: a counter from a random base, distinct from in's keys
	// unless 2^-44-ish luck, checked below.
	base := g.rng.Uint64()
	ks := make([]uint64, 4096)
	out := make([]bool, len(ks))
	fp := 0
	for done := 0; done < absentKeys; done += len(ks) {
		for i := range ks {
			ks[i] = base + uint64(done+i)
		}
		fp += f.TestUint64s(ks, out)
	}
	for _, u := range in.u {
		if u-base < absentKeys {
			t.Fatalf("absent keys overlap the added ones; change the key stream")
		}
	}
	want := f.ModelFPR(nk)
	if s.fam.ExpectedFPR != nil {
		want = s.fam.ExpectedFPR(f, nk)
	}
	lo, hi := fprstat.BinomialBounds(absentKeys, want, fprstat.Z999)
	t.Logf("%s: %d keys, M %d, K %d: %d false positives in %d absent keys (%.5f), expected %.5f, 99.9%% bounds [%.0f, %.0f]",
		s.fam.Name, nk, f.M(), f.K(), fp, absentKeys, float64(fp)/absentKeys, want, lo, hi)
	if float64(fp) < lo || float64(fp) > hi {
		t.Errorf("%s: %d false positives in %d absent keys (rate %.5f), outside the 99.9%% bounds [%.0f, %.0f] of the expected rate %.5f",
			s.fam.Name, fp, absentKeys, float64(fp)/absentKeys, lo, hi, want)
	}
	if m := f.ModelFPR(0); m != 0 {
		t.Errorf("%s: ModelFPR(0) = %v, want 0", s.fam.Name, m)
	}
	// Rising in n, within [0, 1], up to rounding (1e-9).
	prev := 0.0
	for _, k := range []uint64{1, 100, nk / 2, nk, 2 * nk, 10 * nk, 100 * nk} {
		m := f.ModelFPR(k)
		if !(m >= prev-1e-9 && m <= 1+1e-9) {
			t.Errorf("%s: ModelFPR(%d) = %v after %v: not rising within [0, 1]", s.fam.Name, k, m, prev)
		}
		prev = m
	}
	if c := f.EstimatedCount(); !(math.Abs(c-nk) <= 0.2*nk) {
		t.Errorf("%s: EstimatedCount %v after %d distinct keys, more than 20%% off", s.fam.Name, c, nk)
	}
}
