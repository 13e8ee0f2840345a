package classic

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/cpulevel"
	"github.com/filterengine/filterengine/internal/store"
	"github.com/filterengine/filterengine/internal/testkit/fprstat"
	"github.com/filterengine/filterengine/internal/testkit/fuzzenv"
	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

func newDynamic(t testing.TB, nr uint64, p float64, opts ...engine.Option) *Dynamic {
	t.Helper()
	d, err := NewDynamic(nr, p, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Hadoop's rule: a row opens when a key arrives and the active row holds
// nr keys, whichever add path brings the keys.
func TestDynamicRows(t *testing.T) {
	const nr, n = 100_000, 1_000_000
	ks := members(n)
	d := newDynamic(t, nr, 0.01)
	d.AddUint64s(ks)
	if d.Rows() != 10 || d.Added() != n {
		t.Fatalf("1e6 keys at nr = 1e5: %d rows, count %d; want 10 rows", d.Rows(), d.Added())
	}
	d.AddUint64(1)
	if d.Rows() != 11 || d.Added() != n+1 {
		t.Fatalf("one more key: %d rows, want 11", d.Rows())
	}
	e := newDynamic(t, 3, 0.01)
	for i := range 10 {
		e.AddString(strconv.Itoa(i))
		if want := i/3 + 1; e.Rows() != want {
			t.Fatalf("after %d keys at nr = 3: %d rows, want %d", i+1, e.Rows(), want)
		}
	}
	if e.M() != 4*e.RowBits() || e.SizeBytes() != 4*8*((e.RowBits()+63)/64) {
		t.Fatalf("M %d, SizeBytes %d for 4 rows of %d bits", e.M(), e.SizeBytes(), e.RowBits())
	}
}

// dynamicAdders are every way of adding keys to a Dynamic filter.
func dynamicAdders(ks []uint64, keys [][]byte, hs []uint64) map[string]func(d *Dynamic) {
	return map[string]func(d *Dynamic){
		"Add":        func(d *Dynamic) { forEach(keys, d.Add) },
		"AddString":  func(d *Dynamic) { forEach(keys, func(k []byte) { d.AddString(string(k)) }) },
		"AddUint64":  func(d *Dynamic) { forEach(ks, d.AddUint64) },
		"AddHash":    func(d *Dynamic) { forEach(hs, d.AddHash) },
		"AddHashes":  func(d *Dynamic) { d.AddHashes(hs) },
		"AddKeys":    func(d *Dynamic) { d.AddKeys(keys) },
		"AddUint64s": func(d *Dynamic) { d.AddUint64s(ks) },
		"TestAndAdd": func(d *Dynamic) { forEach(keys, func(k []byte) { d.TestAndAdd(k) }) },
	}
}

// Every added key tests present on every test path, every kernel level,
// with rows below and above one 64-row group.
func TestDynamicNoFalseNegatives(t *testing.T) {
	for _, c := range []struct{ n, nr int }{{20_000, 2_000}, {13_000, 100}} {
		ks := members(c.n)
		keys := make([][]byte, c.n)
		hs := make([]uint64, c.n)
		for i, k := range ks {
			keys[i] = keyBytes(k)
			hs[i] = engine.HashSeed(keys[i], 3)
		}
		kerneltest.ForEachLevel(t, func(t *testing.T) {
			for name, add := range dynamicAdders(ks, keys, hs) {
				d := newDynamic(t, uint64(c.nr), 0.01, engine.WithSeed(3))
				add(d)
				if name != "TestAndAdd" && d.Rows() != (c.n+c.nr-1)/c.nr {
					t.Fatalf("%s: %d rows for %d keys at nr = %d", name, d.Rows(), c.n, c.nr)
				}
				out := make([]bool, c.n)
				for what, hits := range map[string]int{
					"TestHashes":  d.TestHashes(hs, out),
					"TestKeys":    d.TestKeys(keys, out),
					"TestUint64s": d.TestUint64s(ks, out),
				} {
					if hits != c.n {
						t.Fatalf("%s then %s: %d of %d members found (%d rows)", name, what, hits, c.n, d.Rows())
					}
				}
				for i, k := range ks {
					if !d.Test(keys[i]) || !d.TestHash(hs[i]) || !d.TestUint64(k) || !d.TestString(string(keys[i])) {
						t.Fatalf("%s: member %d tests absent on a single-key path", name, i)
					}
				}
			}
		})
	}
}

// The batch answers equal the single-key answers and the OR of the rows'
// own classic answers, at batch lengths that leave every tail.
func TestDynamicBatchMatchesRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	d := newDynamic(t, 500, 0.2) // a high p so that answers are mixed
	d.AddUint64s(members(66 * 500)[:65*500+7])
	if d.Rows() != 66 {
		t.Fatalf("%d rows", d.Rows())
	}
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		for _, size := range []int{0, 1, 7, 8, 9, 15, 16, 17, 33, 63, 64, 65, 1000} {
			ks := make([]uint64, size)
			for i := range ks {
				ks[i] = rng.Uint64()
			}
			out := make([]bool, size+1)
			out[size] = true
			hits := d.TestUint64s(ks, out)
			want := 0
			for i, k := range ks {
				h := engine.HashUint64(k)
				any := false
				for _, f := range d.rows {
					any = any || f.TestHash(h)
				}
				if out[i] != any || d.TestHash(h) != any {
					t.Fatalf("size %d key %d: batch %v, single %v, rows %v", size, i, out[i], d.TestHash(h), any)
				}
				if any {
					want++
				}
			}
			if hits != want || !out[size] {
				t.Fatalf("size %d: %d hits, want %d (sentinel %v)", size, hits, want, out[size])
			}
		}
	})
}

// The measured FPR of 10 full rows sits in the binomial bounds of the
// model 1 - (1 - p')^rows.
func TestDynamicFPR(t *testing.T) {
	const nr, n, trials = 100_000, 1_000_000, 1_000_000
	d := newDynamic(t, nr, 0.01)
	d.AddUint64s(members(n))
	fp := d.TestUint64s(nonMembers(trials), make([]bool, trials))
	model := d.ModelFPR(n)
	row := engine.FPR(d.RowBits(), nr, d.K())
	if want := 1 - math.Pow(1-row, 10); math.Abs(model-want) > 1e-12 {
		t.Fatalf("ModelFPR(1e6) = %v, want 1-(1-p')^10 = %v", model, want)
	}
	lo, hi := fprstat.BinomialBounds(trials, model, fprstat.Z999)
	t.Logf("10 rows of nr=1e5 at p=1%%: measured %.5f, model %.5f", float64(fp)/trials, model)
	if float64(fp) < lo || float64(fp) > hi {
		t.Fatalf("%d false positives outside [%.0f, %.0f] around the model %.5f", fp, lo, hi, model)
	}
	if got := d.ModelFPR(nr / 2); math.Abs(got-engine.FPR(d.RowBits(), nr/2, d.K())) > 1e-15 {
		t.Fatalf("ModelFPR of half a row = %v", got)
	}
	if got := d.ModelFPR(0); got != 0 {
		t.Fatalf("ModelFPR(0) = %v", got)
	}
	if est := d.EstimatedCount(); math.Abs(est-n)/n > 0.02 {
		t.Fatalf("EstimatedCount %.0f for %d keys", est, n)
	}
}

func TestDynamicTestAndAdd(t *testing.T) {
	d := newDynamic(t, 10, 0.001)
	for i := range 25 {
		if d.TestAndAdd([]byte(fmt.Sprint("k", i))) {
			t.Fatalf("new key %d tested present", i)
		}
	}
	if d.Added() != 25 || d.Rows() != 3 {
		t.Fatalf("count %d, rows %d", d.Added(), d.Rows())
	}
	for i := range 25 {
		if !d.TestAndAdd([]byte(fmt.Sprint("k", i))) {
			t.Fatalf("key %d tested absent", i)
		}
	}
	if d.Added() != 25 {
		t.Fatalf("TestAndAdd of present keys added them: count %d", d.Added())
	}
}

func TestDynamicCloneAndString(t *testing.T) {
	d := newDynamic(t, 100, 0.01, engine.WithSeed(1))
	d.AddUint64s(members(250))
	before, _ := d.MarshalBinary()
	c := d.Clone()
	c.AddUint64s(nonMembers(100))
	if after, _ := d.MarshalBinary(); !bytes.Equal(after, before) {
		t.Fatal("keys added to the clone changed the original's bits")
	}
	if d.Rows() != 3 || c.Rows() != 4 || d.Added() != 250 {
		t.Fatalf("clone not independent: %d/%d rows", d.Rows(), c.Rows())
	}
	for _, k := range nonMembers(100) {
		if !c.TestUint64(k) {
			t.Fatal("clone lost a key")
		}
	}
	if s := d.String(); len(s) > 200 || !strings.Contains(s, "rows: 3") {
		t.Fatalf("String() = %q", s)
	}
}

func TestDynamicErrors(t *testing.T) {
	for _, c := range []struct {
		nr uint64
		p  float64
	}{{0, 0.01}, {10, 0}, {10, 1}, {10, math.NaN()}, {1 << 62, 1e-9}} {
		if _, err := NewDynamic(c.nr, c.p); !errors.Is(err, engine.ErrParam) {
			t.Errorf("NewDynamic(%d, %v): err = %v", c.nr, c.p, err)
		}
	}
	if _, err := NewDynamicMK(10, 100, 0); !errors.Is(err, engine.ErrParam) {
		t.Errorf("k = 0: err = %v", err)
	}
	if _, err := NewDynamic(10, 0.01, config.FamilyOption(1)); !errors.Is(err, engine.ErrParam) {
		t.Errorf("unknown option: err = %v", err)
	}
	var z Dynamic
	out := make([]bool, 3)
	if z.Test([]byte("x")) || z.TestUint64s([]uint64{1, 2, 3}, out) != 0 || z.Rows() != 0 || z.ModelFPR(5) != 0 {
		t.Fatal("zero Dynamic answered present")
	}
	if _, err := z.MarshalBinary(); err == nil {
		t.Fatal("zero Dynamic marshalled")
	}
	mustPanic(t, "classic.Dynamic: zero value, use classic.NewDynamic", func() { z.Add([]byte("x")) })
	d := newDynamic(t, 10, 0.01)
	mustPanic(t, "classic: out has 1 elements for 2 keys", func() { d.TestUint64s([]uint64{1, 2}, out[:1]) })
}

func mustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), want) {
			t.Fatalf("panic %v, want one containing %q", r, want)
		}
	}()
	f()
}

const dynamicGolden = "testdata/dynamic-v1.golden"

// goldenDynamic: 3 rows of nr = 40 (the last partly full), m not a
// multiple of 64, a seed.
func goldenDynamic(t testing.TB) *Dynamic {
	d, err := NewDynamicMK(40, 500, 4, engine.WithSeed(42))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		d.AddString(fmt.Sprint("key-", i))
	}
	return d
}

func dynamicEqual(a, b *Dynamic) bool {
	if a.nr != b.nr || a.m != b.m || a.k != b.k || a.seed != b.seed || a.active != b.active || len(a.rows) != len(b.rows) {
		return false
	}
	for i := range a.rows {
		if !a.rows[i].Equal(b.rows[i]) {
			return false
		}
	}
	return true
}

func TestDynamicGolden(t *testing.T) {
	want, err := goldenDynamic(t).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	got := golden(t, dynamicGolden, want)
	d, err := DecodeDynamic(got)
	if err != nil {
		t.Fatal(err)
	}
	if d.Rows() != 3 || d.Added() != 100 || d.RowBits() != 500 || d.K() != 4 || d.Seed() != 42 {
		t.Fatalf("golden decoded as %v", d)
	}
	for i := range 100 {
		if !d.TestString(fmt.Sprint("key-", i)) {
			t.Fatalf("golden lost key %d", i)
		}
	}
}

// golden compares want with the golden file at path (rewriting it under
// -update) and returns the file's bytes.
func golden(t *testing.T, path string, want []byte) []byte {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: the encoding changed; a format change needs a version bump and a reader for the old one", path)
	}
	return got
}

// checkCodecs round-trips data through every decoder (binary, stream
// with trailing bytes, Decode, Read) and checks each result with same;
// then every single corrupted byte and every truncation must be an error.
func checkCodecs[T any](t *testing.T, data []byte, unmarshal func([]byte) (T, error), read func(*bytes.Buffer) (T, int64, error), same func(T) bool) {
	t.Helper()
	got, err := unmarshal(data)
	if err != nil || !same(got) {
		t.Fatalf("binary round trip: err %v", err)
	}
	buf := bytes.NewBuffer(bytes.Clone(data))
	buf.WriteString("trailing")
	got, n, err := read(buf)
	if err != nil || n != int64(len(data)) || !same(got) || buf.String() != "trailing" {
		t.Fatalf("stream round trip: read %d of %d bytes, err %v", n, len(data), err)
	}
	for i := range data {
		bad := bytes.Clone(data)
		bad[i] ^= 0x20
		if _, err := unmarshal(bad); !errors.Is(err, engine.ErrFormat) {
			t.Fatalf("byte %d corrupted: err = %v", i, err)
		}
		if _, _, err := read(bytes.NewBuffer(bad)); !errors.Is(err, engine.ErrFormat) {
			t.Fatalf("byte %d corrupted, stream: err = %v", i, err)
		}
	}
	for n := range len(data) {
		if _, err := unmarshal(data[:n]); err == nil {
			t.Fatalf("truncated to %d bytes: no error", n)
		}
	}
}

// A decoded filter keeps growing by Hadoop's rule (the conformance
// suite's Codecs check the round trips themselves).
func TestDynamicDecodedGrows(t *testing.T) {
	data, err := goldenDynamic(t).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	e, err := DecodeDynamic(data)
	if err != nil {
		t.Fatal(err)
	}
	e.AddUint64s(members(21))
	if e.Rows() != 4 || e.Added() != 121 {
		t.Fatalf("decoded filter grew to %d rows, count %d", e.Rows(), e.Added())
	}
}

// Forged headers whose checksums are right but whose fields lie are
// format errors, and a claimed huge row count costs no allocation.
func TestDynamicHostile(t *testing.T) {
	forge := func(params []uint64, payload int) []byte {
		return forgeEnvelope(t, store.FamilyDynamic, dynamicVersion, params, make([]byte, payload))
	}
	tail := make([]byte, 8)
	tail[7] = 0xff
	for name, data := range map[string][]byte{
		"rows":      forge([]uint64{10, 64, 3, 1 << 60, 0}, 64),
		"overflow":  forge([]uint64{10, 64, 3, 1<<61 + 1, 0}, 8),
		"active":    forge([]uint64{10, 64, 3, 1, 11}, 8),
		"nr":        forge([]uint64{0, 64, 3, 1, 0}, 8),
		"zero rows": forge([]uint64{10, 64, 3, 0, 0}, 0),
		"k":         forge([]uint64{10, 64, 1 << 40, 1, 0}, 8),
		"m":         forge([]uint64{10, 0, 3, 1, 0}, 8),
		"params":    forge([]uint64{10, 64, 3, 1}, 8),
		"tail bits": forgeEnvelope(t, store.FamilyDynamic, dynamicVersion, []uint64{10, 60, 3, 1, 0}, tail),
	} {
		if _, err := DecodeDynamic(data); !errors.Is(err, engine.ErrFormat) {
			t.Errorf("%s: err = %v", name, err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, _ = DecodeDynamic(data)
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > 16<<10 {
			t.Errorf("%s: %d bytes allocated before the error", name, n)
		}
	}
}

// Decoding allocates in proportion to the file: a row of one word, the
// smallest, costs its bits and its filter's bookkeeping (about 400
// bytes), so a file of such rows decodes into about 50 times its size,
// and no more than 64 times.
func TestDynamicDecodeAllocation(t *testing.T) {
	const rows = 1 << 14
	data := forgeEnvelope(t, store.FamilyDynamic, dynamicVersion, []uint64{1, 1, 1, rows, 0}, make([]byte, 8*rows))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	d, err := DecodeDynamic(data)
	runtime.ReadMemStats(&after)
	if err != nil || d.Rows() != rows {
		t.Fatalf("%d rows of one word: %v", rows, err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64*uint64(len(data)) {
		t.Errorf("a %d-byte file allocated %d bytes", len(data), n)
	}
}

func FuzzDecodeDynamic(f *testing.F) {
	good, _ := goldenDynamic(f).MarshalBinary()
	// A mutated envelope fails its checksums; the sealed form of each
	// input reaches the decoder.
	env := fuzzenv.AddSeeds(f, good)
	f.Add([]byte{})
	check := func(t *testing.T, data []byte) {
		d, err := DecodeDynamic(data)
		if err != nil {
			if !errors.Is(err, engine.ErrFormat) {
				t.Fatalf("error %v does not wrap ErrFormat", err)
			}
			return
		}
		again, err := d.MarshalBinary()
		if err != nil || !bytes.Equal(again, data) {
			t.Fatal("a decoded Dynamic does not re-encode to its input")
		}
		d.TestUint64s(members(9), make([]bool, 9))
		d.AddUint64s(members(9))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check(t, data)
		if sealed := env.Seal(data); sealed != nil {
			check(t, sealed)
		}
	})
}

// BenchmarkDynamic compares a batch test over 10 rows (1e6 keys) and 100
// rows (1e7 keys) with the rows' own classic batch tests of the same keys
// run one after the other, on members and non-members, per kernel level.
//
//	go test -run '^$' -bench Dynamic -count 6 ./classic
func BenchmarkDynamic(b *testing.B) {
	for _, rows := range []int{10, 100} {
		benchmarkDynamic(b, 100_000, rows)
	}
}

func benchmarkDynamic(b *testing.B, nr, rows int) {
	ks := members(nr * rows)
	absent := nonMembers(nr * rows)
	d := newDynamic(b, uint64(nr), 0.01)
	defer d.Close()
	d.AddUint64s(ks)
	out := make([]bool, batchSize)
	for _, l := range cpulevel.Available() {
		restore, _ := cpulevel.Use(l)
		for _, set := range []struct {
			name string
			keys []uint64
		}{{"member", ks}, {"nonmember", absent}} {
			n := len(set.keys)
			b.Run(fmt.Sprintf("rows=%d/kernel=%v/%s/Dynamic.TestUint64s", rows, l, set.name), func(b *testing.B) {
				keys := 0
				for i := 0; b.Loop(); i++ {
					off := (i * batchSize) % (n - batchSize)
					d.TestUint64s(set.keys[off:off+batchSize], out)
					keys += batchSize
				}
				reportNsPerKey(b, keys)
			})
			b.Run(fmt.Sprintf("rows=%d/kernel=%v/%s/rows-one-by-one", rows, l, set.name), func(b *testing.B) {
				keys := 0
				for i := 0; b.Loop(); i++ {
					off := (i * batchSize) % (n - batchSize)
					for _, f := range d.rows {
						f.TestUint64s(set.keys[off:off+batchSize], out)
					}
					keys += batchSize
				}
				reportNsPerKey(b, keys)
			})
		}
		restore()
	}
}

// forgeEnvelope seals params and payload in a valid envelope, so a test
// can make a header whose only lie is in its fields.
func forgeEnvelope(t testing.TB, fam store.Family, version uint16, params []uint64, payload []byte) []byte {
	t.Helper()
	h := store.Header{Family: fam, Version: version, Params: params}
	data, err := store.AppendEnvelope(nil, h, payload)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
