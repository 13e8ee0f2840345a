package leveldb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/enginegolden"
)

// format is one of the package's two filter formats, with its reference:
// the engine's writer and reader spelled plainly, a division per probe.
type format struct {
	name         string
	append       func(dst []byte, keys [][]byte, bitsPerKey int) ([]byte, error)
	appendHashes func(dst []byte, hashes []uint32, bitsPerKey int) ([]byte, error)
	hash         func(key []byte) uint32
	mayMatch     func(filter, key []byte) bool
	spec         func(keys [][]byte, bitsPerKey int) []byte
	specMayMatch func(filter, key []byte) bool
	// golden holds filters the engine's own code wrote (the bench
	// module's interop tests write it with -update-golden).
	golden string
}

// formats is the one table every test below runs over.
var formats = []format{
	{"LevelDB", Append, AppendHashes, Hash, MayMatch, levelDBSpec, levelDBMayMatchSpec, "testdata/leveldb-goleveldb.golden"},
	{"RocksDB", AppendRocksDB, AppendRocksDBHashes, RocksDBHash, RocksDBMayMatch, rocksDBSpec, rocksDBMayMatchSpec, "testdata/rocksdb-legacy-pebble.golden"},
}

// levelDBSpec is LevelDB's CreateFilter as util/bloom.cc spells it.
func levelDBSpec(keys [][]byte, bitsPerKey int) []byte {
	k := Probes(bitsPerKey)
	nBytes := (max(len(keys)*bitsPerKey, 64) + 7) / 8
	nBits := uint64(nBytes * 8)
	f := make([]byte, nBytes+1)
	f[nBytes] = byte(k)
	for _, key := range keys {
		h := Hash(key)
		delta := h>>17 | h<<15
		for range k {
			pos := uint64(h) % nBits
			f[pos/8] |= 1 << (pos % 8)
			h += delta
		}
	}
	return f
}

// levelDBMayMatchSpec is KeyMayMatch as util/bloom.cc spells it, in
// 64-bit arithmetic as C++ LevelDB computes positions.
func levelDBMayMatchSpec(f, key []byte) bool {
	if len(f) < 2 {
		return false
	}
	k := f[len(f)-1]
	if k > 30 {
		return true
	}
	nBits := uint64(8 * (len(f) - 1))
	h := Hash(key)
	delta := h>>17 | h<<15
	for range k {
		pos := uint64(h) % nBits
		if f[pos/8]&(1<<(pos%8)) == 0 {
			return false
		}
		h += delta
	}
	return true
}

// rocksDBSpec is Pebble's table-filter writer as its bloom package spells
// it: lines = ceil(n*bitsPerKey/512), plus one when even (0 included).
func rocksDBSpec(keys [][]byte, bitsPerKey int) []byte {
	var hs []uint32
	for _, key := range keys {
		h := RocksDBHash(key)
		if len(hs) > 0 && hs[len(hs)-1] == h {
			continue
		}
		hs = append(hs, h)
	}
	nLines := 0
	if len(hs) > 0 {
		nLines = (len(hs)*bitsPerKey + 511) / 512
		if nLines%2 == 0 {
			nLines++
		}
	}
	f := make([]byte, nLines*64+5)
	if nLines == 0 {
		return f
	}
	k := Probes(bitsPerKey)
	for _, h := range hs {
		delta := h>>17 | h<<15
		b := (h % uint32(nLines)) * 512
		for range k {
			pos := b + h%512
			f[pos/8] |= 1 << (pos % 8)
			h += delta
		}
	}
	f[nLines*64] = byte(k)
	binary.LittleEndian.PutUint32(f[nLines*64+1:], uint32(nLines))
	return f
}

// rocksDBMayMatchSpec is Pebble's tableFilter.MayContain, in its 32-bit
// arithmetic, answering true where that arithmetic divides by zero.
func rocksDBMayMatchSpec(f, key []byte) bool {
	if len(f) <= 5 {
		return false
	}
	n := len(f) - 5
	k := f[n]
	lines := binary.LittleEndian.Uint32(f[n+1:])
	if lines == 0 || 8*(uint32(n)/lines) == 0 {
		return true
	}
	lineBits := 8 * (uint32(n) / lines)
	h := RocksDBHash(key)
	delta := h>>17 | h<<15
	b := (h % lines) * lineBits
	for range k {
		pos := b + h%lineBits
		if f[pos/8]&(1<<(pos%8)) == 0 {
			return false
		}
		h += delta
	}
	return true
}

// testKeys returns n keys of every length 0..40 with bytes above 0x7f,
// with repeats both adjacent and far apart.
func testKeys(rng *rand.Rand, n int) [][]byte {
	keys := make([][]byte, n)
	for i := range keys {
		switch {
		case i > 0 && rng.IntN(20) == 0:
			keys[i] = keys[i-1]
		case i > 0 && rng.IntN(20) == 0:
			keys[i] = keys[rng.IntN(i)]
		default:
			keys[i] = make([]byte, i%41)
			for j := range keys[i] {
				keys[i][j] = byte(rng.Uint32())
			}
		}
	}
	return keys
}

// mustAppend is f.append for arguments that must be valid.
func (f format) mustAppend(t testing.TB, dst []byte, keys [][]byte, bitsPerKey int) []byte {
	t.Helper()
	out, err := f.append(dst, keys, bitsPerKey)
	if err != nil {
		t.Fatalf("%s: %d keys at %d bits per key: %v", f.name, len(keys), bitsPerKey, err)
	}
	return out
}

// Bits per key every property runs at: 0 (Pebble's one line, LevelDB's
// 64-bit minimum), the usual budgets, k's cap of 30 (44), and past it.
var testBitsPerKey = []int{0, 1, 2, 5, 10, 16, 20, 30, 40, 44, 100, 200, 1000}

func TestAppendMatchesSpec(t *testing.T) {
	for _, f := range formats {
		rng := rand.New(rand.NewPCG(14, 3))
		for _, n := range []int{0, 1, 2, 5, 7, 8, 9, 63, 64, 65, 1000, 5000} {
			keys := testKeys(rng, n)
			hs := make([]uint32, n)
			for i, key := range keys {
				hs[i] = f.hash(key)
			}
			for _, bpk := range testBitsPerKey {
				want := f.spec(keys, bpk)
				if got := f.mustAppend(t, nil, keys, bpk); !bytes.Equal(got, want) {
					t.Fatalf("%s: n=%d bitsPerKey=%d: the writer differs from the engine's", f.name, n, bpk)
				}
				if got, err := f.appendHashes(nil, hs, bpk); err != nil || !bytes.Equal(got, want) {
					t.Fatalf("%s: n=%d bitsPerKey=%d: the hashes' writer differs from the keys' (%v)", f.name, n, bpk, err)
				}
				for _, key := range keys {
					if !f.mayMatch(want, key) {
						t.Fatalf("%s: n=%d bitsPerKey=%d: false negative for %x", f.name, n, bpk, key)
					}
				}
				for _, key := range testKeys(rng, 200) {
					if f.mayMatch(want, key) != f.specMayMatch(want, key) {
						t.Fatalf("%s: n=%d bitsPerKey=%d: the reader differs from the engine's on %x", f.name, n, bpk, key)
					}
				}
			}
		}
	}
}

// 0 bits per key is a budget both engines take: Pebble writes one line
// with k = 1 (69 bytes for any number of keys), LevelDB its 64-bit
// minimum with k = 1. The golden filters hold both from the engines' own
// writers; this pins the sizes and first bytes as well.
func TestZeroBitsPerKey(t *testing.T) {
	keys := testKeys(rand.New(rand.NewPCG(14, 13)), 1000)
	for _, c := range []struct {
		f       format
		size, k int // k is the byte at offset k
	}{{formats[0], 9, 8}, {formats[1], 69, 64}} {
		got := c.f.mustAppend(t, nil, keys, 0)
		if len(got) != c.size || got[c.k] != 1 || !bytes.Equal(got, c.f.spec(keys, 0)) {
			t.Errorf("%s: 1000 keys at 0 bits per key: %d bytes, want the engine's %d with k = 1", c.f.name, len(got), c.size)
		}
	}
}

func TestAppendArguments(t *testing.T) {
	keys := testKeys(rand.New(rand.NewPCG(14, 4)), 300)
	for _, f := range formats {
		dst := bytes.Repeat([]byte{0xee}, 1<<16)[:3]
		for _, bpk := range []int{-1, -2, math.MinInt, MaxBits / 100, math.MaxInt / 2, math.MaxInt} {
			got, err := f.append(dst, keys, bpk)
			if !errors.Is(err, engine.ErrParam) || !bytes.Equal(got, dst) {
				t.Errorf("%s: bitsPerKey=%d: %v and %d bytes, want ErrParam and dst unchanged", f.name, bpk, err, len(got))
			}
			if _, err := f.appendHashes(nil, []uint32{1, 2}, bpk); bpk < 0 && !errors.Is(err, engine.ErrParam) {
				t.Errorf("%s: hashes at bitsPerKey=%d: %v, want ErrParam", f.name, bpk, err)
			}
		}
		// It appends: dst's bytes stay, and stale bytes in its spare
		// capacity do not leak into the filter.
		got := f.mustAppend(t, dst, keys, 10)
		if !bytes.Equal(got[:3], []byte{0xee, 0xee, 0xee}) || !bytes.Equal(got[3:], f.spec(keys, 10)) {
			t.Errorf("%s: appending into a slice with stale capacity is not dst followed by the filter", f.name)
		}
	}
	// The bound itself, on the size alone.
	if _, err := filterBits(300, MaxBits/300); err != nil {
		t.Errorf("%d keys at %d bits per key: %v, want no error", 300, MaxBits/300, err)
	}
	if _, err := filterBits(300, MaxBits/300+1); !errors.Is(err, engine.ErrParam) {
		t.Errorf("%d keys at %d bits per key: %v, want ErrParam", 300, MaxBits/300+1, err)
	}
	if f, _ := AppendRocksDB(nil, nil, 10); !bytes.Equal(f, make([]byte, 5)) {
		t.Errorf("RocksDB: no keys: %x, want Pebble's five zero bytes", f)
	}
	if f, _ := Append(nil, nil, 10); len(f) != 9 || f[8] != 6 {
		t.Errorf("LevelDB: no keys: %x, want the 8-byte minimum and k = 6", f)
	}
	// RocksDB: a run of one key counts once; the same key apart counts
	// twice. LevelDB keeps every key.
	a, b := []byte("a"), []byte("b")
	if x, _ := AppendRocksDB(nil, [][]byte{a, a, a, b}, 512); !bytes.Equal(x, rocksDBSpec([][]byte{a, b}, 512)) {
		t.Error("RocksDB: a run of a key must count once")
	}
}

func TestMayMatchEdges(t *testing.T) {
	key := []byte("key")
	for _, f := range [][]byte{nil, {}, {6}} {
		if MayMatch(f, key) {
			t.Errorf("LevelDB: a %d-byte filter matched", len(f))
		}
	}
	for _, k := range []byte{31, 100, 255} {
		if !MayMatch([]byte{0, 0, 0, k}, key) {
			t.Errorf("LevelDB: k byte %d (reserved) did not match", k)
		}
	}
	if !MayMatch([]byte{0, 0}, key) {
		t.Error("LevelDB: k = 0 must match: no probe fails")
	}
	if MayMatch([]byte{0, 0, 0, 30}, key) {
		t.Error("LevelDB: an all-zero filter with k = 30 matched")
	}
	for _, n := range []int{0, 1, 5} {
		if RocksDBMayMatch(make([]byte, n), key) {
			t.Errorf("RocksDB: a %d-byte filter matched", n)
		}
	}
	line := make([]byte, 64+5)
	binary.LittleEndian.PutUint32(line[65:], 1)
	if !RocksDBMayMatch(line, key) {
		t.Error("RocksDB: k = 0 must match")
	}
	line[64] = 6
	if RocksDBMayMatch(line, key) {
		t.Error("RocksDB: an empty line with k = 6 matched")
	}
	// Pebble divides by zero on these; a corrupt filter answers true.
	for _, lines := range []uint32{0, 65, 1 << 31} {
		binary.LittleEndian.PutUint32(line[65:], lines)
		if !RocksDBMayMatch(line, key) {
			t.Errorf("RocksDB: nLines=%d (inconsistent) must answer true", lines)
		}
	}
	// Other line sizes read as Pebble reads them: two 32-byte lines.
	binary.LittleEndian.PutUint32(line[65:], 2)
	for i := range 64 {
		line[i] = 0xff
	}
	if !RocksDBMayMatch(line, key) {
		t.Error("RocksDB: a full filter of 32-byte lines must match")
	}
}

// TestGolden compares with filters goleveldb and Pebble v1.1.5 wrote,
// 0 bits per key included.
func TestGolden(t *testing.T) {
	for _, f := range formats {
		data, err := os.ReadFile(f.golden)
		if err != nil {
			t.Fatal(err)
		}
		cases, err := enginegolden.Decode(data)
		if err != nil {
			t.Fatalf("%s: %v", f.golden, err)
		}
		zero := false
		for _, c := range cases {
			keys := enginegolden.Keys(c.N)
			if got := f.mustAppend(t, nil, keys, c.BitsPerKey); !bytes.Equal(got, c.Filter) {
				t.Errorf("%s: n=%d bitsPerKey=%d: the writer differs from the engine's filter (%d vs %d bytes)", f.name, c.N, c.BitsPerKey, len(got), len(c.Filter))
			}
			for _, key := range keys {
				if !f.mayMatch(c.Filter, key) {
					t.Fatalf("%s: n=%d bitsPerKey=%d: the engine's filter misses %x", f.name, c.N, c.BitsPerKey, key)
				}
			}
			zero = zero || c.BitsPerKey == 0 && c.N > 0
		}
		if len(cases) == 0 || !zero {
			t.Errorf("%s: %d golden filters, none at 0 bits per key", f.name, len(cases))
		}
	}
}

// TestConcurrent writes and reads filters from several goroutines at once
// (the RocksDB writer shares a pool of hash scratch).
func TestConcurrent(t *testing.T) {
	keys := testKeys(rand.New(rand.NewPCG(14, 9)), 3000)
	for _, f := range formats {
		want := f.spec(keys, 10)
		done := make(chan bool)
		for g := range 4 {
			go func() {
				ok := true
				for i := range 50 {
					n := (g*50 + i) % len(keys)
					got, err := f.append(nil, keys[:n], 10)
					ok = ok && err == nil && bytes.Equal(got, f.spec(keys[:n], 10)) && f.mayMatch(want, keys[n])
				}
				done <- ok
			}()
		}
		for range 4 {
			if !<-done {
				t.Errorf("%s: a concurrent writer or reader went wrong", f.name)
			}
		}
	}
}

func FuzzMayMatch(f *testing.F) {
	for _, ff := range formats {
		filter, _ := ff.append(nil, [][]byte{[]byte("a"), []byte("b")}, 10)
		f.Add(filter, []byte("a"))
	}
	f.Add([]byte{0xff, 0x1e}, []byte{0x80})
	f.Add([]byte{0, 31}, []byte{})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0}, []byte{0x80})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 30, 2, 0, 0, 0}, []byte{0x80, 1})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1, 0, 0, 0, 0x80}, []byte("k"))
	f.Fuzz(func(t *testing.T, filter, key []byte) {
		for _, ff := range formats {
			if got, want := ff.mayMatch(filter, key), ff.specMayMatch(filter, key); got != want {
				t.Fatalf("%s: reader(%x, %x) = %v, the engine's %v", ff.name, filter, key, got, want)
			}
		}
	})
}

func FuzzAppend(f *testing.F) {
	f.Add([]byte("abc\x80\xffdefgh"), uint8(10), int16(5))
	f.Add([]byte("abc\x80\xffdefgh"), uint8(10), int16(0))
	f.Add([]byte("abc\x80\xffdefgh"), uint8(10), int16(-3))
	f.Fuzz(func(t *testing.T, data []byte, n uint8, bpk int16) {
		keys := enginegolden.Cut(data, int(n))
		for _, ff := range formats {
			got, err := ff.append(nil, keys, int(bpk))
			if bpk < 0 {
				if !errors.Is(err, engine.ErrParam) || got != nil {
					t.Fatalf("%s: bitsPerKey=%d: %v", ff.name, bpk, err)
				}
				continue
			}
			if err != nil || !bytes.Equal(got, ff.spec(keys, int(bpk))) {
				t.Fatalf("%s: the writer differs from the engine's at bitsPerKey=%d (%v)", ff.name, bpk, err)
			}
		}
	})
}
