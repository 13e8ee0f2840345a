package classic

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/fprstat"
	"github.com/filterengine/filterengine/internal/hashing"
)

// levelDBSpec is LevelDB's CreateFilter as util/bloom.cc spells it, with a
// division per probe: the reference AppendLevelDB must equal.
func levelDBSpec(keys [][]byte, bitsPerKey int) []byte {
	k := hashing.LevelDBK(bitsPerKey)
	nBits := max(len(keys)*bitsPerKey, 64)
	nBytes := (nBits + 7) / 8
	nBits = nBytes * 8
	f := make([]byte, nBytes+1)
	f[nBytes] = byte(k)
	for _, key := range keys {
		h := hashing.LevelDBHash(key)
		delta := h>>17 | h<<15
		for range k {
			pos := uint64(h) % uint64(nBits)
			f[pos/8] |= 1 << (pos % 8)
			h += delta
		}
	}
	return f
}

// levelDBMayMatchSpec is KeyMayMatch as LevelDB's util/bloom.cc spells it.
func levelDBMayMatchSpec(f, key []byte) bool {
	if len(f) < 2 {
		return false
	}
	k := f[len(f)-1]
	if k > 30 {
		return true
	}
	nBits := uint64(8 * (len(f) - 1))
	h := hashing.LevelDBHash(key)
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

// levelDBKeys returns n keys of every length 0..40 with bytes above 0x7f,
// duplicates included.
func levelDBKeys(rng *rand.Rand, n int) [][]byte {
	keys := make([][]byte, n)
	for i := range keys {
		if i > 0 && rng.IntN(20) == 0 {
			keys[i] = keys[rng.IntN(i)]
			continue
		}
		keys[i] = make([]byte, i%41)
		for j := range keys[i] {
			keys[i][j] = byte(rng.Uint32())
		}
	}
	return keys
}

func TestAppendLevelDBMatchesSpec(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 3))
	for _, n := range []int{0, 1, 2, 5, 7, 8, 9, 63, 64, 65, 1000} {
		keys := levelDBKeys(rng, n)
		for _, bpk := range []int{0, 1, 2, 5, 10, 16, 20, 30, 40, 44, 100} {
			want := levelDBSpec(keys, bpk)
			if got := AppendLevelDB(nil, keys, bpk); !bytes.Equal(got, want) {
				t.Fatalf("n=%d bitsPerKey=%d: AppendLevelDB differs from LevelDB's CreateFilter", n, bpk)
			}
			hs := make([]uint32, n)
			for i, key := range keys {
				hs[i] = hashing.LevelDBHash(key)
			}
			if got := AppendLevelDBHashes(nil, hs, bpk); !bytes.Equal(got, want) {
				t.Fatalf("n=%d bitsPerKey=%d: AppendLevelDBHashes differs from AppendLevelDB", n, bpk)
			}
			for _, key := range keys {
				if !LevelDBMayMatch(want, key) {
					t.Fatalf("n=%d bitsPerKey=%d: false negative for %x", n, bpk, key)
				}
			}
			for range 200 {
				keys := levelDBKeys(rng, 1+rng.IntN(41))
				key := keys[rng.IntN(len(keys))]
				if LevelDBMayMatch(want, key) != levelDBMayMatchSpec(want, key) {
					t.Fatalf("n=%d bitsPerKey=%d: LevelDBMayMatch(%x) differs from KeyMayMatch", n, bpk, key)
				}
			}
		}
	}
}

func TestAppendLevelDBArguments(t *testing.T) {
	keys := levelDBKeys(rand.New(rand.NewPCG(14, 4)), 100)
	// Below 0 counts as 0: LevelDB's 64-bit minimum with k = 1.
	for _, bpk := range []int{-1, math.MinInt, 0} {
		f := AppendLevelDB(nil, keys, bpk)
		if len(f) != 9 || f[8] != 1 || !bytes.Equal(f, levelDBSpec(keys, 0)) {
			t.Errorf("bitsPerKey=%d: %d bytes, k=%d; want LevelDB's 8-byte minimum with k=1", bpk, len(f), f[len(f)-1])
		}
	}
	// Above the cap counts as the cap: no huge allocation.
	for _, bpk := range []int{101, 1 << 30, math.MaxInt} {
		if f := AppendLevelDB(nil, keys, bpk); !bytes.Equal(f, levelDBSpec(keys, hashing.LevelDBMaxBitsPerKey)) {
			t.Errorf("bitsPerKey=%d: %d bytes, want the filter of %d bits per key", bpk, len(f), hashing.LevelDBMaxBitsPerKey)
		}
	}
	// It appends: dst's bytes stay, and stale bytes in its spare capacity
	// do not leak into the filter.
	dst := bytes.Repeat([]byte{0xee}, 4096)[:3]
	got := AppendLevelDB(dst, keys, 10)
	if !bytes.Equal(got[:3], []byte{0xee, 0xee, 0xee}) || !bytes.Equal(got[3:], levelDBSpec(keys, 10)) {
		t.Error("AppendLevelDB into a slice with stale capacity is not dst followed by the filter")
	}
}

func TestLevelDBMayMatchEdges(t *testing.T) {
	key := []byte("key")
	for _, f := range [][]byte{nil, {}, {6}} {
		if LevelDBMayMatch(f, key) {
			t.Errorf("a %d-byte filter matched", len(f))
		}
	}
	for _, k := range []byte{31, 100, 255} {
		if !LevelDBMayMatch([]byte{0, 0, 0, k}, key) {
			t.Errorf("k byte %d (reserved) did not match", k)
		}
	}
	if !LevelDBMayMatch([]byte{0, 0}, key) {
		t.Error("k = 0 must match: no probe fails")
	}
	if LevelDBMayMatch([]byte{0, 0, 0, 30}, key) {
		t.Error("an all-zero filter with k = 30 matched")
	}
}

// randomKeys returns n random 16-byte keys. LevelDB's hash is weak on
// structured keys (two 8-byte keys that differ only in the top bit of a
// 32-bit word hash to values 2^31 + 2^15 apart, so their probes correlate),
// so the model is checked on random keys.
func randomKeys(rng *rand.Rand, n int) [][]byte {
	keys := make([][]byte, n)
	for i := range keys {
		keys[i] = binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, rng.Uint64()), rng.Uint64())
	}
	return keys
}

func TestLevelDBFPR(t *testing.T) {
	const n, trials = 100_000, 1_000_000
	rng := rand.New(rand.NewPCG(14, 5))
	keys, absent := randomKeys(rng, n), randomKeys(rng, trials)
	for _, bpk := range []int{5, 10, 16} {
		f := AppendLevelDB(nil, keys, bpk)
		for _, key := range keys {
			if !LevelDBMayMatch(f, key) {
				t.Fatalf("bitsPerKey=%d: false negative", bpk)
			}
		}
		fp := 0
		for _, key := range absent {
			if LevelDBMayMatch(f, key) {
				fp++
			}
		}
		// LevelDB's second hash is the first rotated, not an independent
		// one, and its probes correlate: independent probes over the same
		// bits give the Bloom model (0.84% at 10 bits per key), this format
		// measures up to about 1.7x that (1.44%). So the model bounds the
		// rate from below and twice the model from above.
		m := 8 * uint64(len(f)-1)
		model := engine.FPR(m, n, uint32(hashing.LevelDBK(bpk)))
		lo, _ := fprstat.BinomialBounds(trials, model, fprstat.Z999)
		_, hi := fprstat.BinomialBounds(trials, 2*model, fprstat.Z999)
		t.Logf("bitsPerKey=%d k=%d: measured %.5f, Bloom model %.5f", bpk, hashing.LevelDBK(bpk), float64(fp)/trials, model)
		if float64(fp) < lo || float64(fp) > hi {
			t.Errorf("bitsPerKey=%d: %d false positives outside [%.0f, %.0f] (the Bloom model %.5f and twice it)", bpk, fp, lo, hi, model)
		}
	}
}

// goldenKeys is the key set of the golden filters, also built in the bench
// module's interop tests: key i has length i%41 and bytes across 0..255.
func goldenKeys(n int) [][]byte {
	keys := make([][]byte, n)
	for i := range keys {
		keys[i] = make([]byte, i%41)
		for j := range keys[i] {
			keys[i][j] = byte(i*131 + j*29 + 0x70)
		}
	}
	return keys
}

// readGolden reads records of (keys, bitsPerKey, filter length as uint32
// little-endian each, filter bytes).
func readGolden(t *testing.T, path string) (cases []struct {
	n, bpk int
	filter []byte
}) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for len(data) > 0 {
		if len(data) < 12 {
			t.Fatalf("%s: truncated record", path)
		}
		n, bpk, size := binary.LittleEndian.Uint32(data), binary.LittleEndian.Uint32(data[4:]), binary.LittleEndian.Uint32(data[8:])
		data = data[12:]
		if uint64(len(data)) < uint64(size) {
			t.Fatalf("%s: truncated filter", path)
		}
		cases = append(cases, struct {
			n, bpk int
			filter []byte
		}{int(n), int(bpk), data[:size]})
		data = data[size:]
	}
	return cases
}

// TestLevelDBGolden compares with filters goleveldb wrote
// (testdata/leveldb-goleveldb.golden, written by the bench module's
// interop tests with -update-golden).
func TestLevelDBGolden(t *testing.T) {
	cases := readGolden(t, "testdata/leveldb-goleveldb.golden")
	if len(cases) == 0 {
		t.Fatal("no golden filters")
	}
	for _, c := range cases {
		keys := goldenKeys(c.n)
		if got := AppendLevelDB(nil, keys, c.bpk); !bytes.Equal(got, c.filter) {
			t.Errorf("n=%d bitsPerKey=%d: AppendLevelDB differs from goleveldb's filter", c.n, c.bpk)
		}
		for _, key := range keys {
			if !LevelDBMayMatch(c.filter, key) {
				t.Fatalf("n=%d bitsPerKey=%d: goleveldb's filter misses %x", c.n, c.bpk, key)
			}
		}
	}
}

func FuzzLevelDBMayMatch(f *testing.F) {
	f.Add(AppendLevelDB(nil, [][]byte{[]byte("a"), []byte("b")}, 10), []byte("a"))
	f.Add([]byte{0xff, 0x1e}, []byte{0x80})
	f.Add([]byte{0, 31}, []byte{})
	f.Fuzz(func(t *testing.T, filter, key []byte) {
		if got, want := LevelDBMayMatch(filter, key), levelDBMayMatchSpec(filter, key); got != want {
			t.Fatalf("LevelDBMayMatch(%x, %x) = %v, KeyMayMatch %v", filter, key, got, want)
		}
	})
}

func FuzzAppendLevelDB(f *testing.F) {
	f.Add([]byte("abc\x80\xffdefgh"), uint8(10), int8(5))
	f.Fuzz(func(t *testing.T, data []byte, n uint8, bpk int8) {
		// Cut data into n keys of varying lengths.
		keys := make([][]byte, n)
		for i := range keys {
			if len(data) == 0 {
				break
			}
			l := int(data[0]) % (len(data) + 1)
			keys[i], data = data[:l], data[l:]
		}
		want := levelDBSpec(keys, levelDBBitsPerKey(int(bpk)))
		if got := AppendLevelDB(nil, keys, int(bpk)); !bytes.Equal(got, want) {
			t.Fatalf("AppendLevelDB differs from CreateFilter at bitsPerKey=%d", bpk)
		}
	})
}

// TestLevelDBMayMatchHash checks the hash LevelDBMayMatch writes out
// against hashing.LevelDBHash: keys of every length 0..40 with bytes above
// 0x7f, probed in a filter about half full, where a different hash gives a
// different answer for about half the keys.
func TestLevelDBMayMatchHash(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 4))
	f := AppendLevelDB(nil, randomKeys(rng, 1000), 1) // k = 1, 1000 bits
	mismatches, yes := 0, 0
	for i := range 41 * 500 {
		key := make([]byte, i%41)
		for j := range key {
			key[j] = byte(rng.Uint32())
		}
		got := LevelDBMayMatch(f, key)
		if got != levelDBMayMatchSpec(f, key) {
			mismatches++
		}
		if got {
			yes++
		}
	}
	if mismatches != 0 || yes == 0 || yes == 41*500 {
		t.Fatalf("%d of %d keys answer differently from KeyMayMatch (%d match)", mismatches, 41*500, yes)
	}
}
