package conformance_test

import (
	"encoding/base64"
	"fmt"
	"io"
	"math/bits"
	"runtime"
	"sync/atomic"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/batch"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/hashing"
	"github.com/filterengine/filterengine/internal/store"
)

// fake is a small counting Bloom filter written from the contract alone,
// to test the suite: one 64-bit counter per cell on engine storage, k
// probes by double hashing over the whole array. With bug set (the
// broken-family tests set it in a child process) it breaks one rule.
type fake struct {
	st   *store.Storage
	c    []uint64 // counters: st.Words()
	k    uint32
	seed uint64
}

// bug names the rule the fake breaks; "" is none.
var bug string

const fakeName = "conformance.fake"

func zeroFake() { batch.Zero(fakeName, "conformance.NewFake") }

func newFake(n uint64, p float64, opts ...engine.Option) (*fake, error) {
	if bug == "params" && n == 0 {
		return &fake{}, nil
	}
	m, err := engine.OptimalBits(n, p)
	if err != nil {
		return nil, err
	}
	return newFakeMK(m, engine.OptimalK(m, n), opts...)
}

func newFakeMK(m uint64, k uint32, opts ...engine.Option) (*fake, error) {
	if err := errs.CheckMK(m, k, 30); err != nil {
		return nil, err
	}
	if m > 1<<40 {
		return nil, errs.ParamErrorf("%d counters", m)
	}
	c := config.Apply(opts)
	st, err := store.NewStorage(m, c.HugePages)
	if err != nil {
		return nil, err
	}
	return &fake{st: st, c: st.Words(), k: k, seed: c.Seed}, nil
}

func (f *fake) keepAlive() {
	if bug != "keepalive" {
		runtime.KeepAlive(f.st)
	}
}

// cell returns the counter index of probe i of hash h.
func (f *fake) cell(h uint64, i uint32) uint64 {
	return hashing.Reduce(h+uint64(i)*(bits.RotateLeft64(h, 32)|1), uint64(len(f.c)))
}

func (f *fake) AddHash(h uint64) {
	if f.st == nil {
		zeroFake()
	}
	for i := range f.k {
		if x := &f.c[f.cell(h, i)]; *x < 1<<62 {
			*x++
		}
	}
	f.keepAlive()
}

func (f *fake) TestHash(h uint64) bool {
	if f.st == nil {
		return bug == "zero"
	}
	for i := range f.k {
		if f.c[f.cell(h, i)] == 0 {
			return false
		}
	}
	f.keepAlive()
	return true
}

func (f *fake) AddHashConcurrent(h uint64) {
	if f.st == nil {
		zeroFake()
	}
	for i := range f.k {
		if bug == "racy" {
			f.c[f.cell(h, i)]++
		} else {
			atomic.AddUint64(&f.c[f.cell(h, i)], 1)
		}
	}
	f.keepAlive()
}

func (f *fake) TestHashConcurrent(h uint64) bool {
	if f.st == nil {
		return false
	}
	for i := range f.k {
		if atomic.LoadUint64(&f.c[f.cell(h, i)]) == 0 {
			return false
		}
	}
	f.keepAlive()
	return true
}

func (f *fake) RemoveHash(h uint64) bool {
	if f.st == nil {
		return false
	}
	if !f.TestHash(h) && bug != "remove" {
		return false
	}
	for i := range f.k {
		if x := &f.c[f.cell(h, i)]; *x > 0 && *x < 1<<62 {
			*x--
		}
	}
	f.keepAlive()
	return true
}

func (f *fake) hash(key []byte) uint64 { return engine.HashSeed(key, f.seed) }
func (f *fake) hashU(k uint64) uint64  { return engine.HashUint64Seed(k, f.seed) }
func (f *fake) hashS(s string) uint64  { return engine.HashStringSeed(s, f.seed) }

func (f *fake) Add(key []byte)                 { f.AddHash(f.hash(key)) }
func (f *fake) Test(key []byte) bool           { return f.TestHash(f.hash(key)) }
func (f *fake) AddString(s string)             { f.AddHash(f.hashS(s)) }
func (f *fake) TestString(s string) bool       { return f.TestHash(f.hashS(s)) }
func (f *fake) AddUint64(k uint64)             { f.AddHash(f.hashU(k)) }
func (f *fake) TestUint64(k uint64) bool       { return f.TestHash(f.hashU(k)) }
func (f *fake) Remove(key []byte) bool         { return f.RemoveHash(f.hash(key)) }
func (f *fake) RemoveString(s string) bool     { return f.RemoveHash(f.hashS(s)) }
func (f *fake) RemoveUint64(k uint64) bool     { return f.RemoveHash(f.hashU(k)) }
func (f *fake) AddConcurrent(key []byte)       { f.AddHashConcurrent(f.hash(key)) }
func (f *fake) TestConcurrent(key []byte) bool { return f.TestHashConcurrent(f.hash(key)) }

// TestAndAddHashConcurrent counts every probe with an atomic add and
// answers present iff no counter was zero before its own add.
func (f *fake) TestAndAddHashConcurrent(h uint64) bool {
	if f.st == nil {
		zeroFake()
	}
	if bug == "dedup" { // test after the add: always present
		f.AddHashConcurrent(h)
		return f.TestHashConcurrent(h)
	}
	present := true
	for i := range f.k {
		if atomic.AddUint64(&f.c[f.cell(h, i)], 1) == 1 {
			present = false
		}
	}
	f.keepAlive()
	return present
}

func (f *fake) TestAndAddConcurrent(key []byte) bool { return f.TestAndAddHashConcurrent(f.hash(key)) }
func (f *fake) TestAndAddUint64Concurrent(k uint64) bool {
	return f.TestAndAddHashConcurrent(f.hashU(k))
}
func (f *fake) TestAndAddStringConcurrent(s string) bool {
	return f.TestAndAddHashConcurrent(f.hashS(s))
}

func (f *fake) TestAndAddHash(h uint64) bool {
	if f.TestHash(h) {
		return true
	}
	f.AddHash(h)
	return false
}

func (f *fake) TestAndAdd(key []byte) bool {
	if bug == "testandadd" {
		f.Add(key)
		return false
	}
	return f.TestAndAddHash(f.hash(key))
}

// each calls fn on every hash; the batch forms are loops over it.
func (f *fake) testHashes(hs []uint64, out []bool, fn func(uint64) bool) int {
	if bug != "shortout" {
		out = batch.Out(fakeName, out, len(hs))
	}
	hits := 0
	for i, h := range hs {
		out[i] = fn(h)
		if out[i] {
			hits++
		}
	}
	return hits
}

func (f *fake) AddHashes(hs []uint64) {
	if f.st == nil {
		zeroFake()
	}
	if bug == "keepalive" {
		addCells(f.c, f.k, hs) // f is unreachable from here on
		return
	}
	addCells(f.c, f.k, hs)
	if bug == "addforms" && len(hs) > 1 {
		addCells(f.c, f.k, hs[:1]) // the first key counted twice
	}
	runtime.KeepAlive(f.st)
}

func (f *fake) TestHashes(hs []uint64, out []bool) int {
	if f.st == nil {
		return f.testHashes(hs, out, func(uint64) bool { return bug == "zero" })
	}
	out = batch.Out(fakeName, out, len(hs))
	if bug == "keepalive" {
		return testCells(f.c, f.k, hs, out) // f is unreachable from here on
	}
	hits := testCells(f.c, f.k, hs, out)
	runtime.KeepAlive(f.st)
	return hits
}

func addCells(c []uint64, k uint32, hs []uint64) {
	for _, h := range hs {
		for i := range k {
			if x := &c[hashing.Reduce(h+uint64(i)*(bits.RotateLeft64(h, 32)|1), uint64(len(c)))]; *x < 1<<62 {
				*x++
			}
		}
	}
}

func testCells(c []uint64, k uint32, hs []uint64, out []bool) int {
	hits := 0
	for j, h := range hs {
		in := true
		for i := range k {
			if c[hashing.Reduce(h+uint64(i)*(bits.RotateLeft64(h, 32)|1), uint64(len(c)))] == 0 {
				in = false
				break
			}
		}
		if bug == "batch" && j == len(hs)-1 && len(hs)%16 > 8 {
			in = !in
		}
		out[j] = in
		if in {
			hits++
		}
	}
	return hits
}

func (f *fake) AddKeys(keys [][]byte) {
	var b batch.Hashes
	for base := 0; base < len(keys); base += batch.Chunk {
		f.AddHashes(b.Keys(keys[base:], f.seed))
	}
}

func (f *fake) TestKeys(keys [][]byte, out []bool) int {
	if bug == "shortout" {
		return f.testHashes(make([]uint64, len(keys)), out, func(uint64) bool { return false })
	}
	out = batch.Out(fakeName, out, len(keys))
	if bug == "allocs" {
		hs := make([]uint64, len(keys))
		for i, k := range keys {
			hs[i] = f.hash(k)
		}
		return f.TestHashes(hs, out)
	}
	var b batch.Hashes
	hits := 0
	for base := 0; base < len(keys); base += batch.Chunk {
		hits += f.TestHashes(b.Keys(keys[base:], f.seed), out[base:])
	}
	return hits
}

func (f *fake) AddUint64s(ks []uint64) {
	if bug == "lose" && len(ks)%8 != 0 {
		ks = ks[:len(ks)-1]
	}
	var b batch.Hashes
	for base := 0; base < len(ks); base += batch.Chunk {
		f.AddHashes(b.Uint64s(ks[base:], f.seed))
	}
}

func (f *fake) TestUint64s(ks []uint64, out []bool) int {
	out = batch.Out(fakeName, out, len(ks))
	var b batch.Hashes
	hits := 0
	for base := 0; base < len(ks); base += batch.Chunk {
		hits += f.TestHashes(b.Uint64s(ks[base:], f.seed), out[base:])
	}
	if bug == "fpr" {
		for i, k := range ks {
			if !out[i] && k%64 == 0 {
				out[i] = true
				hits++
			}
		}
	}
	return hits
}

func (f *fake) AddHashesConcurrent(hs []uint64) {
	for _, h := range hs {
		f.AddHashConcurrent(h)
	}
}

func (f *fake) AddUint64sConcurrent(ks []uint64) {
	for _, k := range ks {
		f.AddHashConcurrent(f.hashU(k))
	}
}

func (f *fake) removeAll(hs []uint64, out []bool) int {
	out = batch.Out(fakeName, out, len(hs))
	hits := 0
	for i, h := range hs {
		out[i] = f.RemoveHash(h)
		if out[i] {
			hits++
		}
	}
	return hits
}

func (f *fake) RemoveHashes(hs []uint64, out []bool) int { return f.removeAll(hs, out) }

func (f *fake) RemoveKeys(keys [][]byte, out []bool) int {
	out = batch.Out(fakeName, out, len(keys))
	var b batch.Hashes
	hits := 0
	for base := 0; base < len(keys); base += batch.Chunk {
		hits += f.removeAll(b.Keys(keys[base:], f.seed), out[base:])
	}
	return hits
}

func (f *fake) RemoveUint64s(ks []uint64, out []bool) int {
	out = batch.Out(fakeName, out, len(ks))
	var b batch.Hashes
	hits := 0
	for base := 0; base < len(ks); base += batch.Chunk {
		hits += f.removeAll(b.Uint64s(ks[base:], f.seed), out[base:])
	}
	return hits
}

func (f *fake) M() uint64         { return uint64(len(f.c)) }
func (f *fake) K() uint32         { return f.k }
func (f *fake) SizeBytes() uint64 { return 8 * f.M() }

func (f *fake) EstimatedCount() float64 {
	if f.st == nil {
		return 0
	}
	set := uint64(0)
	for _, x := range f.c {
		if x != 0 {
			set++
		}
	}
	f.keepAlive()
	return engine.EstimateCount(f.M(), f.k, set)
}

func (f *fake) ModelFPR(n uint64) float64 {
	if f.st == nil {
		return 0
	}
	return engine.FPR(f.M(), n, f.k)
}

func (f *fake) String() string {
	if bug == "string" {
		return fmt.Sprint(f.c)
	}
	return fmt.Sprintf("%s{m: %d, k: %d, seed: %d}", fakeName, f.M(), f.k, f.seed)
}

func (f *fake) Clone() *fake {
	if f.st == nil {
		return &fake{}
	}
	if bug == "clone" {
		return &fake{st: f.st, c: f.c, k: f.k, seed: f.seed}
	}
	g, err := newFakeMK(f.M(), f.k, engine.WithSeed(f.seed))
	if err != nil {
		panic(err)
	}
	copy(g.c, f.c)
	f.keepAlive()
	return g
}

const fakeFamily store.Family = 0xFA4E

func (f *fake) header() store.Header {
	return store.Header{Family: fakeFamily, Version: 1, Seed: f.seed, Params: []uint64{f.M(), uint64(f.k)}}
}

func (f *fake) MarshalBinary() ([]byte, error) {
	if f.st == nil {
		return nil, errs.ParamErrorf("zero %s has no encoding", fakeName)
	}
	out, err := store.AppendEnvelope(nil, f.header(), store.WordsBytes(f.c))
	f.keepAlive()
	return out, err
}

func (f *fake) WriteTo(w io.Writer) (int64, error) {
	if f.st == nil {
		return 0, errs.ParamErrorf("zero %s has no encoding", fakeName)
	}
	n, err := store.WriteEnvelope(w, f.header(), store.WordsBytes(f.c))
	f.keepAlive()
	return n, err
}

func (f *fake) decode(h store.Header, payload []byte, opts []engine.Option) error {
	if err := h.Expect(fakeFamily, 1, 2); err != nil {
		return err
	}
	m, k := h.Params[0], h.Params[1]
	if bug == "hostile" && payload[m*8-1] == 0xFF { // reads before it checks
		return errs.FormatErrorf("unreachable")
	}
	if m == 0 || k == 0 || k > 30 || m*8 != uint64(len(payload)) {
		return errs.FormatErrorf("%s with m %d, k %d in %d bytes", fakeName, m, k, len(payload))
	}
	seed := h.Seed
	if bug == "codec" {
		seed = 0
	}
	g, err := newFakeMK(m, uint32(k), append(opts, engine.WithSeed(seed))...)
	if err != nil {
		return errs.FormatErrorf("%v", err)
	}
	store.CopyWords(g.c, payload)
	*f = *g
	return nil
}

func (f *fake) UnmarshalBinary(data []byte) error { return store.Unmarshal(data, f.into(nil)) }

func (f *fake) ReadFrom(r io.Reader) (int64, error) { return store.ReadFrom(r, f.into(nil)) }

func (f *fake) into(opts []engine.Option) func(store.Header, []byte) error {
	return func(h store.Header, payload []byte) error { return f.decode(h, payload, opts) }
}

func decodeFake(data []byte, opts ...engine.Option) (*fake, error) {
	f, err := store.Decode(data, opts, (*fake).decode)
	if err != nil && bug == "corrupt" {
		return &fake{}, nil
	}
	return f, err
}

func readFake(r io.Reader, opts ...engine.Option) (*fake, error) {
	return store.Read(r, opts, (*fake).decode)
}

func (f *fake) MarshalText() ([]byte, error) {
	b, err := f.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return []byte(base64.StdEncoding.EncodeToString(b)), nil
}

func (f *fake) UnmarshalText(text []byte) error {
	b, err := base64.StdEncoding.DecodeString(string(text))
	if err != nil {
		return errs.FormatErrorf("not base64: %v", err)
	}
	return f.UnmarshalBinary(b)
}
