package conformance

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

// Run runs the conformance suite on one membership family. The checks
// whose answer depends on the kernel run once per kernel level this CPU
// and build have (kerneltest.ForEachLevel; under -tags purego that is
// generic alone), as subtests <level>/<check>:
//
//   - NoFalseNegatives: keys added through every add form (Add, AddHash,
//     AddHashes, AddKeys, AddUint64, AddUint64s, AddString, TestAndAdd,
//     TestAndAddHash, and the *Concurrent forms of a Concurrent type), with
//     the default seed and another, test present in every test form;
//   - BatchEqualsSingle: TestHashes, TestKeys and TestUint64s answer, key by
//     key, what TestHash, Test and TestUint64 answer (and those what Test
//     answers for the same bytes), at lengths that leave a tail at every
//     vector width and cross the 256-key chunks, on present, absent and
//     mixed keys, from aligned and unaligned starts; every out[i] is
//     written, nothing past the keys is;
//   - AddFormsAgree: every add form, single or batch, leaves the filter in
//     the same state (the same MarshalBinary bytes) for the same keys;
//   - TestAndAdd: TestAndAdd and TestAndAddHash answer what Test answered
//     before them, and add the key;
//   - Allocs: no single-key or batch method allocates (testing.AllocsPerRun),
//     but for an add that grows the filter (a new stage or row);
//   - ShortOut: a batch out shorter than its keys panics with a readable
//     message naming the family, never a runtime error;
//   - Remover (types with Remove): removes succeed for added keys, removed
//     keys test absent up to the model's false positives, kept keys stay,
//     an absent key's remove answers false and changes nothing, batch
//     removes equal single ones;
//   - Concurrent: plain reads from many goroutines, and for a Concurrent
//     type the *Concurrent writers beside each other and beside
//     TestConcurrent, over batch lengths with tails; then no false
//     negatives. For a ConcurrentDedup type, its forms answer as the
//     plain TestAndAddHash alone, and raced on the same new keys leave
//     each present to its caller with at least one call per key answering
//     false (Concurrent/TestAndAdd). RunConcurrent runs this alone, for
//     -race;
//   - HugePagesGC: a filter large enough for huge-page storage (New, or
//     NewMK for a type that grows) answers batch calls over 2^21 keys while
//     runtime.GC runs in another goroutine from the start of each call, the
//     filter unreachable but for the call in progress: a method that reads
//     its words without runtime.KeepAlive of their storage has them
//     unmapped under it and faults or loses keys.
//
// The checks that do not depend on the kernel run once:
//
//   - FPR: the false-positive rate on 2^20 absent keys lies within the
//     99.9% binomial bounds of Family.ExpectedFPR (default ModelFPR);
//     ModelFPR is 0 at 0 keys, rising, at most 1; EstimatedCount is
//     within 20% of the keys added;
//   - Params: bad n, p, m and k give errors wrapping engine.ErrParam,
//     never a panic; NewMK's filter reports the K asked and an M near m;
//   - Codecs: MarshalBinary/Decode, UnmarshalBinary, WriteTo/ReadFrom,
//     Read, MarshalText/UnmarshalText, encoding/json and encoding/gob of a
//     struct holding the filter all round trip (same bytes, same answers,
//     seed kept); Read reads nothing past the envelope; decoded filters
//     do not alias the input; Clone is independent of the original;
//   - Corruption: every single-byte change of the binary form (three
//     masks per byte; every decoder on the header and every 61st payload
//     byte, UnmarshalBinary on the rest), every truncation and an
//     appended byte are errors wrapping engine.ErrFormat, never a panic,
//     and a failed UnmarshalBinary leaves its filter unchanged. A format
//     without engine's envelope and its checksums (parquet.Filter's Parquet form)
//     may accept a changed byte, never panicking;
//   - Hostile: headers claiming huge payloads or odd parameters are
//     rejected (or accepted) without a large allocation or a panic;
//   - ZeroValue: a zero value (reflect.New of the element type) never
//     answers present, never fails with a runtime error (an empty
//     filter's answers, or a panic naming the constructor), and a write
//     it accepts is kept;
//   - String: one line of at most 200 bytes naming the family, for new,
//     loaded and huge filters.
func Run[T Membership[T]](t *testing.T, fam Family[T]) {
	s := newSuite(t, fam)
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		t.Run("NoFalseNegatives", s.noFalseNegatives)
		t.Run("BatchEqualsSingle", s.batchEqualsSingle)
		t.Run("AddFormsAgree", s.addFormsAgree)
		t.Run("TestAndAdd", s.testAndAdd)
		t.Run("Allocs", s.allocs)
		t.Run("ShortOut", s.shortOut)
		t.Run("Remover", s.remover)
		t.Run("Concurrent", s.concurrent)
		t.Run("HugePagesGC", s.hugePagesGC)
	})
	t.Run("FPR", s.fpr)
	t.Run("Params", s.params)
	t.Run("Codecs", s.codecs)
	t.Run("Corruption", s.corruption)
	t.Run("Hostile", s.hostile)
	t.Run("ZeroValue", s.zeroValue)
	t.Run("Closed", s.closedValue)
	t.Run("String", s.str)
}

// RunConcurrent runs only the Concurrent check, at every kernel level: a
// family calls it from a test whose name contains Concurrent, so that
// make test's race run (go test -race -run Concurrent) covers it.
func RunConcurrent[T Membership[T]](t *testing.T, fam Family[T]) {
	s := newSuite(t, fam)
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		t.Run("Concurrent", s.concurrent)
	})
}

// Sizes of the suite's filters: p is their target rate, n the keys they
// are built for.
const (
	p      = 0.01
	n      = 8000
	maxOut = 1000 // longest batch of kerneltest.BatchLengths
)

// otherSeed is the seed of the suite's seeded filters.
const otherSeed = 0x5eed_f11e_c0de_0001

type suite[T Membership[T]] struct {
	fam Family[T]
	pkg string // the package part of fam.Name, which messages must name
}

func newSuite[T Membership[T]](t *testing.T, fam Family[T]) *suite[T] {
	t.Helper()
	if fam.Name == "" || fam.New == nil {
		t.Fatal("conformance: Family needs Name and New")
	}
	// The package: the name up to its first character that cannot be in
	// an import path's last element ("blocked" of "blocked.Window",
	// "counting" of "counting/8-bit").
	pkg := fam.Name
	if i := strings.IndexFunc(pkg, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }); i > 0 {
		pkg = pkg[:i]
	}
	return &suite[T]{fam: fam, pkg: pkg}
}

// seedings returns the seed variants to run: the default seed, and
// otherSeed unless the family takes none.
func (s *suite[T]) seedings() []bool {
	if s.fam.NoSeed {
		return []bool{false}
	}
	return []bool{false, true}
}

// opts returns the family's options followed by extra.
func (s *suite[T]) opts(extra ...engine.Option) []engine.Option {
	return append(slices.Clone(s.fam.Options), extra...)
}

// seed returns the seed a filter built with extra has.
func (s *suite[T]) seed(extra ...engine.Option) uint64 { return config.Apply(s.opts(extra...)).Seed }

// new returns New(n, p, Options..., extra...) or fails t.
func (s *suite[T]) new(t testing.TB, n uint64, p float64, extra ...engine.Option) T {
	f, err := s.fam.New(n, p, s.opts(extra...)...)
	if err != nil {
		t.Helper()
		t.Fatalf("%s: New(%d, %v): %v", s.fam.Name, n, p, err)
	}
	return f
}

// marshal returns f.MarshalBinary() or fails t.
func (s *suite[T]) marshal(t testing.TB, f T) []byte {
	t.Helper()
	data, err := f.MarshalBinary()
	if err != nil {
		t.Fatalf("%s: MarshalBinary: %v", s.fam.Name, err)
	}
	return data
}

// ranges cuts [0, n) into consecutive batches whose lengths cycle through
// kerneltest.BatchLengths.
func ranges(n int) [][2]int {
	var out [][2]int
	for i, lo := 0, 0; lo < n; i++ {
		hi := min(n, lo+kerneltest.BatchLengths[i%len(kerneltest.BatchLengths)])
		out = append(out, [2]int{lo, hi})
		lo = hi
	}
	return out
}

// catch runs fn and returns what it panicked with, or nil.
func catch(fn func()) (v any) {
	defer func() { v = recover() }()
	fn()
	return nil
}

// isRuntimeError reports whether a recovered value is a runtime error
// (index out of range, nil dereference, ...), which the contract rules out.
func isRuntimeError(v any) bool {
	var re runtime.Error
	err, ok := v.(error)
	return ok && errors.As(err, &re)
}

// panicText formats a recovered value.
func panicText(v any) string { return fmt.Sprint(v) }
