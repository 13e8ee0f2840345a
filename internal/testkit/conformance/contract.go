// Package conformance is the one test suite every family runs: the
// family contract of engine's package doc written as Go interfaces, so a
// family that drifts from it stops compiling, and the checks every family
// must pass (no false negatives on every path and kernel level, batch
// equals single, zero allocations, codec round trips, corruption
// rejected, misuse answered clearly).
//
// A family's conformance_test.go asserts its types against these
// interfaces and calls the suite with its constructors, once from a test
// of its own and once, for make test's race run (go test -race -run
// Concurrent), from a test whose name contains Concurrent:
//
//	var fam = conformance.Family[*blocked.Filter]{Name: "blocked.Filter",
//		New: blocked.New, NewMK: blocked.NewMK, Decode: blocked.Decode, Read: blocked.Read}
//
//	func TestConformance(t *testing.T)           { conformance.Run(t, fam) }
//	func TestConformanceConcurrent(t *testing.T) { conformance.RunConcurrent(t, fam) }
//
// Run's doc lists the checks. Each check's keys come from fixed seeds, so
// a run is repeatable (the statistical checks are not flaky: they pass or
// fail for good); the concurrent and garbage-collector stresses are the
// only checks whose schedule varies.
package conformance

import (
	"encoding"
	"fmt"
	"io"

	"github.com/filterengine/filterengine/engine"
)

// Membership is the contract of every membership type (classic, blocked,
// counting, shifting ShBF_M, and the types built on them where it
// applies). T is the type itself, so Clone returns the concrete type.
type Membership[T any] interface {
	engine.Filter

	AddUint64(k uint64)
	TestUint64(k uint64) bool
	AddString(s string)
	TestString(s string) bool
	TestAndAdd(key []byte) bool
	TestAndAddHash(h uint64) bool

	Clone() T
	M() uint64
	K() uint32
	SizeBytes() uint64
	EstimatedCount() float64
	ModelFPR(n uint64) float64

	encoding.TextMarshaler
	encoding.TextUnmarshaler
	fmt.Stringer
}

// Concurrent is the set of *Concurrent forms every family with concurrent
// writers offers: they may run from many goroutines at once, beside each
// other; reads beside them are TestConcurrent and TestHashConcurrent.
type Concurrent interface {
	AddConcurrent(key []byte)
	AddHashConcurrent(h uint64)
	AddHashesConcurrent(hs []uint64)
	AddUint64sConcurrent(ks []uint64)
	TestConcurrent(key []byte) bool
	TestHashConcurrent(h uint64) bool
}

// Remover is what counting adds: Remove in every key form. A key that
// tests absent is not removed and answers false.
type Remover interface {
	Remove(key []byte) bool
	RemoveString(s string) bool
	RemoveUint64(k uint64) bool
	RemoveHash(h uint64) bool
	RemoveHashes(hs []uint64, out []bool) int
	RemoveKeys(keys [][]byte, out []bool) int
	RemoveUint64s(ks []uint64, out []bool) int
}

// Family is a membership family's constructors and decoders, the
// package-level half of the contract. A family's test fills it with its
// functions, so a signature that drifts fails to compile.
//
// Name, New and a type T are required; every other field may be left
// zero, which skips the checks that need it (NewMK, Decode, Read) or
// takes the default the field's comment names.
type Family[T Membership[T]] struct {
	Name   string
	New    func(n uint64, p float64, opts ...engine.Option) (T, error)
	NewMK  func(m uint64, k uint32, opts ...engine.Option) (T, error)
	Decode func(data []byte, opts ...engine.Option) (T, error)
	Read   func(r io.Reader, opts ...engine.Option) (T, error)

	// Options are added to every New, NewMK, Decode and Read call the
	// suite makes (a family option, say); the suite adds engine.WithSeed
	// itself where it tests seeds.
	Options []engine.Option

	// Hash, when set, is the hash AddHash and TestHash take for a key
	// under a seed; nil means engine.HashSeed. (parquet.Filter hashes with
	// XXH64, as Parquet prescribes.)
	Hash func(key []byte, seed uint64) uint64

	// NoSeed says the type takes no engine.WithSeed (parquet.Filter, whose
	// format fixes the seed): the suite then skips its seeded variants.
	NoSeed bool

	// ExpectedFPR, when set, is the false-positive rate the suite
	// expects of a filter from New(n0, p) after n distinct keys were
	// added; nil means f.ModelFPR(n). A type whose ModelFPR describes
	// another state than "n keys added to a new filter" (blocked.Window's
	// ModelFPR assumes every generation full) says here what it expects.
	ExpectedFPR func(f T, n uint64) float64
}
