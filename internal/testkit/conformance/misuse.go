package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/engine"
)

// allocs wants zero allocations from every single-key and batch method,
// and from the accessors, on a loaded filter.
func (s *suite[T]) allocs(t *testing.T) {
	// Built for far more keys than the table adds (21 runs of each add
	// form), so that a type that grows has no reason to.
	f := s.new(t, 1<<18, p)
	g := s.keys(6)
	kb, ku := g.mixed(maxOut)
	f.AddKeys(kb.b[:500])
	f.AddUint64s(ku.u[:500])
	out := make([]bool, maxOut)
	b, str, h, u := kb.b[7], kb.s[7], kb.h[7], ku.u[7]
	var sink bool
	var sinkN int
	var sinkF float64
	type method struct {
		name string
		fn   func()
	}
	table := []method{
		{"Add", func() { f.Add(b) }},
		{"Test", func() { sink = f.Test(b) }},
		{"AddHash", func() { f.AddHash(h) }},
		{"TestHash", func() { sink = f.TestHash(h) }},
		{"AddString", func() { f.AddString(str) }},
		{"TestString", func() { sink = f.TestString(str) }},
		{"AddUint64", func() { f.AddUint64(u) }},
		{"TestUint64", func() { sink = f.TestUint64(u) }},
		{"TestAndAdd", func() { sink = f.TestAndAdd(b) }},
		{"TestAndAddHash", func() { sink = f.TestAndAddHash(h) }},
		{"AddHashes", func() { f.AddHashes(kb.h) }},
		{"TestHashes", func() { sinkN = f.TestHashes(kb.h, out) }},
		{"AddKeys", func() { f.AddKeys(kb.b) }},
		{"TestKeys", func() { sinkN = f.TestKeys(kb.b, out) }},
		{"AddUint64s", func() { f.AddUint64s(ku.u) }},
		{"TestUint64s", func() { sinkN = f.TestUint64s(ku.u, out) }},
		{"M", func() { sinkN = int(f.M()) }},
		{"K", func() { sinkN = int(f.K()) }},
		{"SizeBytes", func() { sinkN = int(f.SizeBytes()) }},
		{"EstimatedCount", func() { sinkF = f.EstimatedCount() }},
		{"ModelFPR", func() { sinkF = f.ModelFPR(n) }},
	}
	if c, ok := any(f).(Concurrent); ok {
		table = append(table,
			method{"AddConcurrent", func() { c.AddConcurrent(b) }},
			method{"AddHashConcurrent", func() { c.AddHashConcurrent(h) }},
			method{"AddHashesConcurrent", func() { c.AddHashesConcurrent(kb.h) }},
			method{"AddUint64sConcurrent", func() { c.AddUint64sConcurrent(ku.u) }},
			method{"TestConcurrent", func() { sink = c.TestConcurrent(b) }},
			method{"TestHashConcurrent", func() { sink = c.TestHashConcurrent(h) }})
	}
	if r, ok := any(f).(Remover); ok {
		// Removes of absent keys: they change nothing, so every run
		// does the same work.
		ab, au := g.mixed(maxOut)
		table = append(table,
			method{"Remove", func() { sink = r.Remove(ab.b[0]) }},
			method{"RemoveString", func() { sink = r.RemoveString(ab.s[0]) }},
			method{"RemoveUint64", func() { sink = r.RemoveUint64(au.u[0]) }},
			method{"RemoveHash", func() { sink = r.RemoveHash(ab.h[0]) }},
			method{"RemoveHashes", func() { sinkN = r.RemoveHashes(ab.h, out) }},
			method{"RemoveKeys", func() { sinkN = r.RemoveKeys(ab.b, out) }},
			method{"RemoveUint64s", func() { sinkN = r.RemoveUint64s(au.u, out) }})
	}
	for _, m := range table {
		size := f.SizeBytes()
		a := testing.AllocsPerRun(20, m.fn)
		switch {
		case a != 0 && f.SizeBytes() > size:
			// A type that grows (a new stage or row) allocates its new
			// part: not the call's overhead.
			t.Logf("%s: %s allocates %v times per call while the filter grows from %d to %d bytes", s.fam.Name, m.name, a, size, f.SizeBytes())
		case a != 0:
			t.Errorf("%s: %s allocates %v times per call, want 0", s.fam.Name, m.name, a)
		}
	}
	_, _, _ = sink, sinkN, sinkF
}

// shortOutRE is the shape of batch.Out's message after the family's name.
var shortOutRE = regexp.MustCompile(`out has (\d+) \w+ for (\d+) keys`)

// shortOut wants every batch form with an out shorter than its keys to
// panic with a readable message naming the family and both lengths.
func (s *suite[T]) shortOut(t *testing.T) {
	f := s.new(t, n, p)
	g := s.keys(7)
	kb, ku := g.mixed(maxOut)
	type batch struct {
		name string
		call func(keys int, out []bool)
	}
	forms := []batch{
		{"TestHashes", func(k int, out []bool) { f.TestHashes(kb.h[:k], out) }},
		{"TestKeys", func(k int, out []bool) { f.TestKeys(kb.b[:k], out) }},
		{"TestUint64s", func(k int, out []bool) { f.TestUint64s(ku.u[:k], out) }},
	}
	if r, ok := any(f).(Remover); ok {
		forms = append(forms,
			batch{"RemoveHashes", func(k int, out []bool) { r.RemoveHashes(kb.h[:k], out) }},
			batch{"RemoveKeys", func(k int, out []bool) { r.RemoveKeys(kb.b[:k], out) }},
			batch{"RemoveUint64s", func(k int, out []bool) { r.RemoveUint64s(ku.u[:k], out) }})
	}
	for _, form := range forms {
		for _, c := range [][2]int{{1, 0}, {9, 8}, {17, 16}, {maxOut, maxOut - 1}} {
			keys, have := c[0], c[1]
			out := make([]bool, have, have+64) // room past len: a write there is no fault
			v := catch(func() { form.call(keys, out) })
			msg := panicText(v)
			m := shortOutRE.FindStringSubmatch(msg)
			bad := ""
			switch {
			case v == nil:
				bad = "did not panic"
			case isRuntimeError(v):
				bad = fmt.Sprintf("runtime error %q; want batch.Out's message", msg)
			case !strings.Contains(msg, s.pkg) || m == nil || m[1] != fmt.Sprint(have) || m[2] != fmt.Sprint(keys):
				bad = fmt.Sprintf("panicked with %q; want batch.Out's message, naming %s and both lengths", msg, s.pkg)
			}
			if bad != "" {
				t.Errorf("%s: %s with %d keys and an out of %d: %s", s.fam.Name, form.name, keys, have, bad)
				break // one case per form is enough
			}
		}
	}
}

// zeroOf returns T's zero value: for a pointer type, a pointer to a new
// zero element, as a user's `var f blocked.Filter; f.Add(k)` gets.
func zeroOf[T any]() T {
	rt := reflect.TypeFor[T]()
	if rt.Kind() != reflect.Pointer {
		var z T
		return z
	}
	return reflect.New(rt.Elem()).Interface().(T)
}

// zeroOK reports whether a method of a zero value answered acceptably:
// no panic, or a panic that is not a runtime error and names the
// constructor ("... zero ..., use pkg.NewX").
func (s *suite[T]) zeroPanicOK(v any) bool {
	msg := panicText(v)
	return !isRuntimeError(v) && strings.Contains(strings.ToLower(msg), "zero") && strings.Contains(msg, "New")
}

// zeroValue calls every method on zero values: no answer "present", no
// runtime error, no silently dropped write, and an encoding, if it gives
// one, that the family's decoder takes back.
func (s *suite[T]) zeroValue(t *testing.T) { s.emptyValue(t, "zero value", zeroOf[T]) }

// closedValue holds a filter that held keys and was closed to the zero
// value's rules: Close releases the array, so a method that still reached
// it would read or write memory no longer the filter's (a fault, or
// another object's bytes) where a zero value panics naming the
// constructor.
func (s *suite[T]) closedValue(t *testing.T) {
	if _, ok := any(zeroOf[T]()).(io.Closer); !ok {
		t.Skipf("%s has no Close", s.fam.Name)
	}
	g := s.keys(9)
	kb, _ := g.mixed(64)
	s.emptyValue(t, "closed filter", func() T {
		f := s.new(t, 1000, 0.01)
		f.AddKeys(kb.b)
		if err := any(f).(io.Closer).Close(); err != nil {
			t.Fatalf("%s: Close: %v", s.fam.Name, err)
		}
		return f
	})
}

// emptyValue is zeroValue's checks on the values mk returns, which what
// names.
func (s *suite[T]) emptyValue(t *testing.T, what string, mk func() T) {
	g := s.keys(8)
	kb, ku := g.mixed(33)
	b, str, h, u := kb.b[0], kb.s[0], kb.h[0], ku.u[0]
	out := make([]bool, 33)
	check := func(name string, fn func() bool) {
		t.Helper()
		var present bool
		v := catch(func() { present = fn() })
		switch {
		case v != nil && !s.zeroPanicOK(v):
			t.Errorf("%s: %s: %s panicked with %q; want an empty filter's answer or a panic naming the constructor", s.fam.Name, what, name, panicText(v))
		case v == nil && present:
			t.Errorf("%s: %s: %s answers present", s.fam.Name, what, name)
		}
	}
	fill := func() []bool {
		for i := range out {
			out[i] = true
		}
		return out
	}
	anyTrue := func(out []bool, hits int) bool { return hits != 0 || bytes.Contains(boolBytes(out), []byte{1}) }
	// Reads, all on one zero value.
	z := mk()
	check("Test", func() bool { return z.Test(b) })
	check("TestString", func() bool { return z.TestString(str) })
	check("TestHash", func() bool { return z.TestHash(h) })
	check("TestUint64", func() bool { return z.TestUint64(u) })
	check("TestHashes", func() bool { return anyTrue(out, z.TestHashes(kb.h, fill())) })
	check("TestKeys", func() bool { return anyTrue(out, z.TestKeys(kb.b, fill())) })
	check("TestUint64s", func() bool { return anyTrue(out, z.TestUint64s(ku.u, fill())) })
	if c, ok := any(z).(Concurrent); ok {
		check("TestConcurrent", func() bool { return c.TestConcurrent(b) })
		check("TestHashConcurrent", func() bool { return c.TestHashConcurrent(h) })
	}
	check("M", func() bool { _ = z.M(); return false })
	check("K", func() bool { _ = z.K(); return false })
	check("SizeBytes", func() bool { _ = z.SizeBytes(); return false })
	check("EstimatedCount", func() bool {
		if c := z.EstimatedCount(); c != 0 {
			t.Errorf("%s: %s: EstimatedCount = %v, want 0", s.fam.Name, what, c)
		}
		return false
	})
	check("ModelFPR", func() bool { _ = z.ModelFPR(100); return false })
	check("String", func() bool { _ = z.String(); return false })
	check("Clone", func() bool {
		c := z.Clone()
		var present bool
		if v := catch(func() { present = c.Test(b) }); v != nil && !s.zeroPanicOK(v) {
			t.Errorf("%s: clone of a %s: Test panicked with %q", s.fam.Name, what, panicText(v))
		}
		return present
	})
	check("MarshalBinary", func() bool {
		data, err := z.MarshalBinary()
		if err != nil {
			return false
		}
		// An encoding given must decode, as an empty filter.
		d := zeroOf[T]()
		if err := d.UnmarshalBinary(data); err != nil {
			t.Errorf("%s: a %s's MarshalBinary is rejected by UnmarshalBinary: %v", s.fam.Name, what, err)
			return false
		}
		return d.Test(b)
	})
	check("MarshalText", func() bool { _, _ = z.MarshalText(); return false })
	check("WriteTo", func() bool { _, _ = z.WriteTo(io.Discard); return false })

	// Writes, each on a new zero value: a panic naming the constructor,
	// or the key kept.
	write := func(name string, fn func(z T), uint bool) {
		t.Helper()
		z := mk()
		v := catch(func() { fn(z) })
		if v != nil {
			if !s.zeroPanicOK(v) {
				t.Errorf("%s: %s: %s panicked with %q; want a panic naming the constructor", s.fam.Name, what, name, panicText(v))
			}
			return
		}
		var present bool
		v = catch(func() {
			if uint {
				present = z.TestUint64(u)
			} else {
				present = z.Test(b)
			}
		})
		if v != nil || !present {
			t.Errorf("%s: %s: %s returned, but the key then tests absent (or the test panics: %v): a silently dropped key; panic naming the constructor instead", s.fam.Name, what, name, v)
		}
	}
	write("Add", func(z T) { z.Add(b) }, false)
	write("AddString", func(z T) { z.AddString(str) }, false)
	write("AddHash", func(z T) { z.AddHash(h) }, false)
	write("AddUint64", func(z T) { z.AddUint64(u) }, true)
	write("AddHashes", func(z T) { z.AddHashes(kb.h) }, false)
	write("AddKeys", func(z T) { z.AddKeys(kb.b) }, false)
	write("AddUint64s", func(z T) { z.AddUint64s(ku.u) }, true)
	write("TestAndAdd", func(z T) {
		if z.TestAndAdd(b) {
			t.Errorf("%s: %s: TestAndAdd answers present", s.fam.Name, what)
		}
	}, false)
	write("TestAndAddHash", func(z T) {
		if z.TestAndAddHash(h) {
			t.Errorf("%s: %s: TestAndAddHash answers present", s.fam.Name, what)
		}
	}, false)
	if _, ok := any(z).(Concurrent); ok {
		write("AddConcurrent", func(z T) { any(z).(Concurrent).AddConcurrent(b) }, false)
		write("AddHashConcurrent", func(z T) { any(z).(Concurrent).AddHashConcurrent(h) }, false)
		write("AddHashesConcurrent", func(z T) { any(z).(Concurrent).AddHashesConcurrent(kb.h) }, false)
		write("AddUint64sConcurrent", func(z T) { any(z).(Concurrent).AddUint64sConcurrent(ku.u) }, true)
	}
	if _, ok := any(z).(Remover); ok {
		rm := func(name string, fn func(r Remover) bool) {
			check(name, func() bool { return fn(any(mk()).(Remover)) })
		}
		rm("Remove", func(r Remover) bool { return r.Remove(b) })
		rm("RemoveString", func(r Remover) bool { return r.RemoveString(str) })
		rm("RemoveUint64", func(r Remover) bool { return r.RemoveUint64(u) })
		rm("RemoveHash", func(r Remover) bool { return r.RemoveHash(h) })
		rm("RemoveHashes", func(r Remover) bool { return anyTrue(out, r.RemoveHashes(kb.h, fill())) })
		rm("RemoveKeys", func(r Remover) bool { return anyTrue(out, r.RemoveKeys(kb.b, fill())) })
		rm("RemoveUint64s", func(r Remover) bool { return anyTrue(out, r.RemoveUint64s(ku.u, fill())) })
	}
}

func boolBytes(bs []bool) []byte {
	out := make([]byte, len(bs))
	for i, b := range bs {
		if b {
			out[i] = 1
		}
	}
	return out
}

// params wants an error wrapping engine.ErrParam, and no panic, for
// every bad parameter, and NewMK to build what it was asked.
func (s *suite[T]) params(t *testing.T) {
	try := func(what string, fn func() (T, error)) {
		t.Helper()
		var err error
		if v := catch(func() { _, err = fn() }); v != nil {
			t.Errorf("%s: %s panicked: %v", s.fam.Name, what, v)
			return
		}
		if !errors.Is(err, engine.ErrParam) {
			t.Errorf("%s: %s: error %v, want one wrapping engine.ErrParam", s.fam.Name, what, err)
		}
	}
	for _, c := range []struct {
		n uint64
		p float64
	}{{0, 0.01}, {100, 0}, {100, 1}, {100, -0.5}, {100, 1.5}, {100, math.NaN()}, {100, math.Inf(1)}, {math.MaxUint64, 0.01}, {1 << 62, 1e-9}} {
		try(fmt.Sprintf("New(%d, %v)", c.n, c.p), func() (T, error) { return s.fam.New(c.n, c.p, s.opts()...) })
	}
	if s.fam.NewMK == nil {
		return
	}
	for _, c := range []struct {
		m uint64
		k uint32
	}{{0, 4}, {1 << 16, 0}, {math.MaxUint64, 4}, {1 << 16, math.MaxUint32}} {
		try(fmt.Sprintf("NewMK(%d, %d)", c.m, c.k), func() (T, error) { return s.fam.NewMK(c.m, c.k, s.opts()...) })
	}
	const m, k = 1 << 16, 6 // even: ShBF_M sets k/2 pairs
	f, err := s.fam.NewMK(m, k, s.opts()...)
	if err != nil {
		t.Fatalf("%s: NewMK(%d, %d): %v", s.fam.Name, m, k, err)
	}
	if f.K() != k || f.M() < m/2 || f.M() > 2*m {
		t.Errorf("%s: NewMK(%d, %d) reports M %d, K %d", s.fam.Name, m, k, f.M(), f.K())
	}
	ks := s.keys(9).bytes(2000)
	f.AddKeys(ks.b)
	s.allPresent(t, f, "NewMK filter", ks)
}

// str wants String to be one line of at most 200 bytes naming the
// family, for a new and a loaded filter (the huge one is in HugePagesGC).
func (s *suite[T]) str(t *testing.T) {
	f := s.new(t, 1<<16, p)
	s.checkString(t, "new", f)
	f.AddUint64s(s.keys(10).uints(10000).u)
	s.checkString(t, "loaded", f)
	s.checkString(t, "small", s.new(t, 1, 0.5))
}

func (s *suite[T]) checkString(t testing.TB, what string, f fmt.Stringer) {
	t.Helper()
	str := f.String()
	if len(str) > 200 || strings.ContainsAny(str, "\n\r") || !strings.Contains(str, s.pkg) {
		t.Errorf("%s: String of a %s filter is %d bytes: %.300q; want one line of at most 200 bytes naming %s", s.fam.Name, what, len(str), str, s.pkg)
	}
}
