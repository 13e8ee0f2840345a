package parquet

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	mbits "math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/hashing"
	"github.com/filterengine/filterengine/internal/testkit/fprstat"
	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

var batchSizes = []int{0, 1, 7, 8, 9, 15, 16, 17, 33, 63, 64, 65, 1000}

func TestNewSizes(t *testing.T) {
	for _, n := range []int{32, 64, 1024, 1 << 20} {
		f, err := New(n)
		if err != nil {
			t.Fatalf("New(%d): %v", n, err)
		}
		if f.NumBytes() != n || f.SizeBytes() != uint64(n) || f.M() != uint64(8*n) || f.Blocks() != uint64(n/32) || len(f.Bitset()) != n {
			t.Errorf("New(%d): %v", n, f)
		}
	}
	for _, n := range []int{-32, 0, 1, 16, 31, 33, 48, 1000, MaxBytes * 2, math.MaxInt} {
		if _, err := New(n); !errors.Is(err, engine.ErrParam) {
			t.Errorf("New(%d) = %v, want ErrParam", n, err)
		}
		if _, err := FromBitset(make([]byte, max(0, min(n, 1<<20)))); n >= 0 && n < 1<<20 && !errors.Is(err, engine.ErrParam) {
			t.Errorf("FromBitset(%d bytes) = %v, want ErrParam", n, err)
		}
	}
}

// arrow's OptimalNumOfBits, figures worked out by hand from its formula
// m = -8 ndv / ln(1 - fpp^(1/8)) (9.68 bits per value at 1%).
func TestOptimalNumBytes(t *testing.T) {
	for _, c := range []struct {
		ndv  uint64
		fpp  float64
		want int
	}{
		{0, 0.01, 32}, {1, 0.01, 32}, {26, 0.01, 32}, {27, 0.01, 64},
		{30, 0.01, 64}, {1000, 0.01, 2048}, {1_000_000, 0.01, 2 << 20},
		{1_000_000, 0.001, 2 << 20}, {1_000_000, 0.0001, 4 << 20},
		{1 << 40, 0.01, MaxBytes}, {1000, 0, 0}, {1000, 1, 0}, {1000, -1, 0},
	} {
		if got := OptimalNumBytes(c.ndv, c.fpp); got != c.want {
			t.Errorf("OptimalNumBytes(%d, %v) = %d, want %d", c.ndv, c.fpp, got, c.want)
		}
	}
}

func testValues(seed uint64, n int) []uint64 {
	r := rand.New(rand.NewPCG(seed, seed^0x5bf))
	ks := make([]uint64, n)
	for i := range ks {
		ks[i] = r.Uint64()
	}
	return ks
}

// Every path answers what TestHash answers, batches with tails at every
// vector width, and added values are never missed.
func TestBatchesMatchSingle(t *testing.T) {
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		for _, nb := range []int{32, 1024, 1 << 21} {
			for _, n := range batchSizes {
				f, _ := New(nb)
				g, _ := New(nb)
				ks := testValues(uint64(n*nb), n)
				hs := make([]uint64, n)
				for i, k := range ks {
					hs[i] = hashing.XXH64Uint64(k)
					f.AddHash(hs[i])
				}
				g.AddUint64s(ks)
				if !f.Equal(g) {
					t.Fatalf("bytes=%d n=%d: AddUint64s sets other bits than AddHash of XXH64Uint64", nb, n)
				}
				h, _ := New(nb)
				h.AddHashes(hs)
				if !f.Equal(h) {
					t.Fatalf("bytes=%d n=%d: AddHashes sets other bits than AddHash", nb, n)
				}
				probe := append(slices.Clone(ks), testValues(uint64(n)+99, n)...)
				out := make([]bool, len(probe))
				hits := f.TestUint64s(probe, out)
				want := 0
				for i, k := range probe {
					w := f.TestUint64(k)
					if i < n && !w {
						t.Fatalf("false negative for %#x", k)
					}
					if out[i] != w {
						t.Fatalf("bytes=%d n=%d: TestUint64s[%d] = %v, TestUint64 %v", nb, n, i, out[i], w)
					}
					if w {
						want++
					}
				}
				if hits != want {
					t.Fatalf("TestUint64s hits %d, want %d", hits, want)
				}
				phs := make([]uint64, len(probe))
				var b [8]byte
				for i, k := range probe {
					binary.LittleEndian.PutUint64(b[:], k)
					phs[i] = Hash(b[:])
				}
				out2 := make([]bool, len(probe))
				if f.TestHashes(phs, out2) != hits || !slices.Equal(out, out2) {
					t.Fatalf("TestHashes differs from TestUint64s")
				}
			}
		}
	})
}

func TestKeysAndStrings(t *testing.T) {
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		f, _ := New(4096)
		keys := [][]byte{{}, {0}, {0x80, 0xff}, bytes.Repeat([]byte("long "), 100), []byte("dup"), []byte("dup")}
		f.AddKeys(keys)
		out := make([]bool, len(keys))
		if f.TestKeys(keys, out) != len(keys) {
			t.Fatal("TestKeys misses added keys")
		}
		for _, k := range keys {
			if !f.Test(k) || !f.TestString(string(k)) {
				t.Fatalf("%q missing", k)
			}
		}
		g, _ := New(4096)
		for _, k := range keys {
			g.AddString(string(k))
		}
		if !f.Equal(g) {
			t.Fatal("AddString and AddKeys differ")
		}
		if !g.TestAndAdd([]byte("dup")) {
			t.Fatal("TestAndAdd of a member answered absent")
		}
		fresh := []byte("a key not added")
		before := g.Test(fresh)
		if g.TestAndAdd(fresh) != before || !g.Test(fresh) {
			t.Fatal("TestAndAdd of a new key")
		}
	})
}

func TestFPRModel(t *testing.T) {
	const n, trials = 100_000, 1_000_000
	for _, nb := range []int{OptimalNumBytes(n, 0.01), 64 << 10, 256 << 10} {
		f, _ := New(nb)
		f.AddUint64s(testValues(1, n))
		absent := testValues(2, trials)
		out := make([]bool, trials)
		fp := f.TestUint64s(absent, out)
		model := f.ModelFPR(n)
		lo, hi := fprstat.BinomialBounds(trials, model, fprstat.Z999)
		t.Logf("%d bytes (%.2f bits/value): measured FPR %.4f%%, model %.4f%%", nb, float64(8*nb)/n, 100*float64(fp)/trials, 100*model)
		if float64(fp) < lo || float64(fp) > hi {
			t.Errorf("%d bytes: %d false positives of %d, model %v gives [%.0f, %.0f]", nb, fp, trials, model, lo, hi)
		}
		if est := f.EstimatedCount(); est < 0.97*n || est > 1.03*n {
			t.Errorf("EstimatedCount = %.0f after %d values", est, n)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	f, _ := New(2048)
	f.AddUint64s(testValues(3, 300))
	data, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != 16+2048 || !bytes.Equal(data[:16], []byte{0x15, 0x80, 0x20, 0x1c, 0x1c, 0, 0, 0x1c, 0x1c, 0, 0, 0x1c, 0x1c, 0, 0, 0}) {
		t.Fatalf("header % x", data[:16])
	}
	var buf bytes.Buffer
	if n, err := f.WriteTo(&buf); err != nil || n != int64(len(data)) || !bytes.Equal(buf.Bytes(), data) {
		t.Fatalf("WriteTo = %d, %v; bytes equal %v", n, err, bytes.Equal(buf.Bytes(), data))
	}
	g, err := Read(&buf)
	if err != nil || !g.Equal(f) {
		t.Fatalf("Read: %v", err)
	}
	h := new(Filter)
	if err := h.UnmarshalBinary(data); err != nil || !h.Equal(f) {
		t.Fatalf("UnmarshalBinary: %v", err)
	}
	if err := h.UnmarshalBinary(append(data, 0)); !errors.Is(err, engine.ErrFormat) {
		t.Errorf("trailing byte: %v", err)
	}
	c := f.Clone()
	c.AddString("x")
	if f.TestString("x") && !g.TestString("x") {
		t.Error("Clone aliases")
	}
	if b, _ := FromBitset(f.Bitset()); !b.Equal(f) {
		t.Error("FromBitset(Bitset()) differs")
	}
	if s := f.String(); len(s) > 200 {
		t.Errorf("String too long: %q", s)
	}
}

// Read leaves a reader that is not an io.ByteReader right after the
// bitset.
func TestReadConsumesExactly(t *testing.T) {
	f, _ := New(64)
	f.AddString("a")
	data, _ := f.MarshalBinary()
	r := io.MultiReader(bytes.NewReader(data), bytes.NewReader([]byte("rest")))
	if _, err := Read(r); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(r)
	if string(rest) != "rest" {
		t.Errorf("left %q", rest)
	}
}

func TestZeroValue(t *testing.T) {
	var f Filter
	if f.TestHash(1) || f.Test([]byte("a")) || f.TestUint64s([]uint64{1, 2}, make([]bool, 2)) != 0 {
		t.Error("zero Filter answers yes")
	}
	if f.FillRatio() != 0 || f.EstimatedCount() != 0 || strings.Contains(f.String(), "NaN") {
		t.Errorf("zero Filter: fill %v, estimate %v, %s", f.FillRatio(), f.EstimatedCount(), f.String())
	}
	defer func() {
		if recover() == nil {
			t.Error("Add on a zero Filter did not panic")
		}
	}()
	f.AddHash(1)
}

// compact encodes pieces of a Thrift compact struct for the reader tests.
func zz(v int64) []byte { return binary.AppendUvarint(nil, uint64(v<<1^(v>>63))) }

func uv(v uint64) []byte { return binary.AppendUvarint(nil, v) }

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

var (
	emptyUnion = []byte{0x1c, 0x00, 0x00} // member 1: empty struct; stop
	bitset1024 = make([]byte, 1024)
)

func TestReadEncodings(t *testing.T) {
	nb := cat([]byte{0x15}, zz(1024))
	good := [][]byte{
		// canonical
		cat(nb, []byte{0x1c}, emptyUnion, []byte{0x1c}, emptyUnion, []byte{0x1c}, emptyUnion, []byte{0}),
		// reverse order with long-form field headers (delta 0, zigzag id)
		cat([]byte{0x0c}, zz(4), emptyUnion, []byte{0x0c}, zz(3), emptyUnion, []byte{0x0c}, zz(2), emptyUnion, []byte{0x05}, zz(1), zz(1024), []byte{0}),
	}
	// Build the interesting cases programmatically to keep them readable.
	type f = []byte
	unk := cat(
		f{0x0b}, zz(20), uv(1), f{0x85}, uv(2), f{'h', 'i'}, zz(3), // field 20: map<binary,i32> of 1 entry "hi" -> 3
		f{0x09}, zz(21), f{0x2c}, f{0x15}, zz(5), f{0x00}, f{0x00}, // field 21: list<struct> of 2: {1: 5}, {}
		f{0x09}, zz(22), f{0xf1}, uv(20), bytes.Repeat(f{1}, 20), // field 22: list<bool> of 20
		f{0x01},                            // field 23: bool true (delta 1)
		f{0x17}, f{1, 2, 3, 4, 5, 6, 7, 8}, // field 24: double
		f{0x16}, zz(-1<<40), // field 25: i64
		f{0x1d}, make(f, 16), // field 26: uuid
		f{0x1c}, f{0x1c}, f{0x1c}, f{0x00}, f{0x00}, f{0x00}, // field 27: struct{struct{struct{}}}
	)
	withUnknownInUnion := cat(f{0x2c}, f{0x00}, f{0x0c}, zz(1), f{0x18}, uv(1), f{'z'}, f{0x00}, f{0x00}) // member 2 then member 1 with an unknown field
	cases := map[string][]byte{
		"canonical":        good[0],
		"reordered":        good[1],
		"unknown fields":   cat(unk, f{0x05}, zz(1), zz(1024), f{0x0c}, zz(2), emptyUnion, f{0x1c}, emptyUnion, f{0x1c}, emptyUnion, f{0x00}),
		"unknown in union": cat(nb, f{0x1c}, withUnknownInUnion, f{0x1c}, emptyUnion, f{0x1c}, emptyUnion, f{0x00}),
		"repeated field":   cat(f{0x15}, zz(64), f{0x1c}, emptyUnion, f{0x1c}, emptyUnion, f{0x1c}, emptyUnion, f{0x05}, zz(1), zz(1024), f{0x00}),
	}
	for name, hdr := range cases {
		sb, err := Read(bytes.NewReader(cat(hdr, bitset1024)))
		if err != nil || sb.NumBytes() != 1024 {
			t.Errorf("%s: Read = %v, %v", name, sb, err)
		}
	}
}

func TestReadRejects(t *testing.T) {
	type f = []byte
	u := emptyUnion
	other := f{0x2c, 0x00, 0x00} // member 2 only
	hdr := func(numBytes int64, alg, hash, comp f) f {
		return cat(f{0x15}, zz(numBytes), f{0x1c}, alg, f{0x1c}, hash, f{0x1c}, comp, f{0x00})
	}
	cases := map[string][]byte{
		"empty":              {},
		"stop only":          {0x00},
		"no numBytes":        cat(f{0x2c}, u, f{0x1c}, u, f{0x1c}, u, f{0x00}),
		"numBytes as i64":    cat(f{0x16}, zz(1024), f{0x1c}, u, f{0x1c}, u, f{0x1c}, u, f{0x00}),
		"no algorithm":       cat(f{0x15}, zz(1024), f{0x2c}, u, f{0x1c}, u, f{0x00}),
		"other algorithm":    hdr(1024, other, u, u),
		"other hash":         hdr(1024, u, other, u),
		"other compression":  hdr(1024, u, u, other),
		"empty union":        hdr(1024, f{0x00}, u, u),
		"size 1000":          hdr(1000, u, u, u),
		"size 16":            hdr(16, u, u, u),
		"size 0":             hdr(0, u, u, u),
		"size negative":      hdr(-1024, u, u, u),
		"size 256 MiB":       hdr(256<<20, u, u, u),
		"size over i32":      hdr(1<<32, u, u, u),
		"size -2^31":         hdr(-1<<31, u, u, u),
		"size 2^31 - 1":      hdr(1<<31-1, u, u, u),
		"size 2^30":          hdr(1<<30, u, u, u),
		"truncated header":   hdr(1024, u, u, u)[:9],
		"truncated bitset":   cat(hdr(1024, u, u, u), make(f, 1023)),
		"128 MiB, 100 bytes": cat(hdr(128<<20, u, u, u), make(f, 100)),
		"bad type":           cat(f{0x1f}, hdr(1024, u, u, u)),
		"deep nesting":       cat(bytes.Repeat(f{0x1c}, 100), bytes.Repeat(f{0}, 100)),
		"long varint":        cat(f{0x15}, bytes.Repeat(f{0xff}, 11)),
		"bad list elem":      cat(f{0x19, 0x10}, hdr(1024, u, u, u)),
		"old format":         cat(f{0x00, 0x04, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0}, make(f, 1024)),
	}
	for name, data := range cases {
		if _, err := Read(bytes.NewReader(data)); !errors.Is(err, engine.ErrFormat) {
			t.Errorf("%s: Read = %v, want ErrFormat", name, err)
		}
	}
}

// A header claiming 128 MiB in front of 100 bytes allocates about what
// the stream delivered, not 128 MiB.
func TestReadHostileSizeAllocation(t *testing.T) {
	data := cat([]byte{0x15}, zz(128<<20), []byte{0x1c}, emptyUnion, []byte{0x1c}, emptyUnion, []byte{0x1c}, emptyUnion, []byte{0}, make([]byte, 100))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range 10 {
		if _, err := Read(bytes.NewReader(data)); err == nil {
			t.Fatal("accepted")
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / 10; per > 1<<20 {
		t.Errorf("a 100-byte stream allocated %d bytes per read", per)
	}
}

func FuzzRead(f *testing.F) {
	f.Add(cat([]byte{0x15}, zz(32), []byte{0x1c}, emptyUnion, []byte{0x1c}, emptyUnion, []byte{0x1c}, emptyUnion, []byte{0}, make([]byte, 32)))
	f.Add(cat([]byte{0x15}, zz(128<<20), []byte{0x1c}, emptyUnion, []byte{0x1c}, emptyUnion, []byte{0x1c}, emptyUnion, []byte{0}, make([]byte, 100)))
	for _, name := range []string{"bloom_filter.xxhash.bin", "bloom_filter.bin"} {
		if b, err := readTestdata(name); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sb, err := Read(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, engine.ErrFormat) {
				t.Fatalf("error does not wrap ErrFormat: %v", err)
			}
			return
		}
		if sb.NumBytes() > len(data) {
			t.Fatalf("%d-byte filter from %d bytes", sb.NumBytes(), len(data))
		}
		out, _ := sb.MarshalBinary()
		back, err := Decode(out)
		if err != nil || !back.Equal(sb) {
			t.Fatalf("re-encoding does not read back: %v", err)
		}
	})
}

// Plain reads are safe from many goroutines (run under -race by make
// test).
func TestConcurrentReads(t *testing.T) {
	f, _ := New(4096)
	ks := testValues(4, 500)
	f.AddUint64s(ks)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := make([]bool, len(ks))
			for _, n := range []int{1, 7, 9, 15, 17, 33, 500} {
				if f.TestUint64s(ks[:n], out) != n {
					t.Errorf("goroutine %d: misses", g)
				}
			}
			for _, k := range ks {
				if !f.TestUint64(k) {
					t.Errorf("goroutine %d: misses %#x", g, k)
				}
			}
		}()
	}
	wg.Wait()
}

// parquetJavaNumBytes is parquet-java's sizing as the OptimalNumBytes doc
// describes it: optimalNumOfBits (m truncated, +255, bit 8 cleared, at
// least 256 bits), divided by 8, rounded up to a power of two by the
// BlockSplitBloomFilter constructor.
func parquetJavaNumBytes(ndv uint64, fpp float64) int {
	m := -8 * float64(ndv) / math.Log(1-math.Pow(fpp, 1.0/8))
	bits := int(m)
	bits = (bits + 255) &^ 256
	bits = max(bits, 256)
	n := bits / 8
	if n&(n-1) != 0 {
		n = 1 << mbits.Len(uint(n))
	}
	return n
}

// The doc's examples, and parquet-java's size is always arrow's, twice it
// or half of it.
func TestOptimalNumBytesAgainstParquetJava(t *testing.T) {
	for _, c := range []struct {
		ndv         uint64
		arrow, java int
	}{{30, 64, 128}, {106, 256, 128}, {1000, 2048, 2048}} {
		if a, j := OptimalNumBytes(c.ndv, 0.01), parquetJavaNumBytes(c.ndv, 0.01); a != c.arrow || j != c.java {
			t.Errorf("ndv %d: arrow %d, parquet-java %d; the doc says %d and %d", c.ndv, a, j, c.arrow, c.java)
		}
	}
	differ := 0
	for ndv := uint64(1); ndv < 2_000_000; ndv += 1 + ndv/100 {
		a, j := OptimalNumBytes(ndv, 0.01), parquetJavaNumBytes(ndv, 0.01)
		if j != a && j != 2*a && 2*j != a {
			t.Fatalf("ndv %d: arrow %d, parquet-java %d", ndv, a, j)
		}
		if j != a {
			differ++
		}
	}
	t.Logf("%d sizes differ", differ)
}
