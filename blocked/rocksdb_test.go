package blocked

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/fprstat"
	"github.com/filterengine/filterengine/internal/hashing"
)

// rocksDBLegacySpec is Pebble's table-filter writer spelled plainly, with
// divisions per probe: the reference AppendRocksDBLegacy must equal.
func rocksDBLegacySpec(keys [][]byte, bitsPerKey int) []byte {
	var hs []uint32
	for _, key := range keys {
		h := hashing.RocksDBHash(key)
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
	k := hashing.LevelDBK(bitsPerKey)
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

// rocksDBLegacyMayMatchSpec is Pebble's tableFilter.MayContain, with its
// division by zero answered true.
func rocksDBLegacyMayMatchSpec(f, key []byte) bool {
	if len(f) <= 5 {
		return false
	}
	n := len(f) - 5
	k := f[n]
	lines := binary.LittleEndian.Uint32(f[n+1:])
	if lines == 0 || uint32(n)/lines == 0 {
		return true
	}
	lineBits := 8 * (uint32(n) / lines)
	h := hashing.RocksDBHash(key)
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

// formatKeys returns n keys of every length 0..40 with bytes above 0x7f,
// with repeats both adjacent and far apart.
func formatKeys(rng *rand.Rand, n int) [][]byte {
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

func TestAppendRocksDBLegacyMatchesSpec(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 6))
	for _, n := range []int{0, 1, 2, 7, 8, 9, 63, 64, 65, 1000, 5000} {
		keys := formatKeys(rng, n)
		for _, bpk := range []int{1, 2, 5, 10, 16, 20, 30, 40, 100} {
			want := rocksDBLegacySpec(keys, bpk)
			if got := AppendRocksDBLegacy(nil, keys, bpk); !bytes.Equal(got, want) {
				t.Fatalf("n=%d bitsPerKey=%d: AppendRocksDBLegacy differs from Pebble's writer", n, bpk)
			}
			for _, key := range keys {
				if !RocksDBLegacyMayMatch(want, key) {
					t.Fatalf("n=%d bitsPerKey=%d: false negative for %x", n, bpk, key)
				}
			}
			for _, key := range formatKeys(rng, 200) {
				if RocksDBLegacyMayMatch(want, key) != rocksDBLegacyMayMatchSpec(want, key) {
					t.Fatalf("n=%d bitsPerKey=%d: RocksDBLegacyMayMatch(%x) differs from Pebble's", n, bpk, key)
				}
			}
		}
	}
}

func TestAppendRocksDBLegacyArguments(t *testing.T) {
	keys := formatKeys(rand.New(rand.NewPCG(14, 7)), 300)
	for _, bpk := range []int{0, -1, math.MinInt} {
		if f := AppendRocksDBLegacy(nil, keys, bpk); !bytes.Equal(f, rocksDBLegacySpec(keys, 1)) {
			t.Errorf("bitsPerKey=%d: want the filter of 1 bit per key", bpk)
		}
	}
	for _, bpk := range []int{101, 1 << 30, math.MaxInt} {
		if f := AppendRocksDBLegacy(nil, keys, bpk); !bytes.Equal(f, rocksDBLegacySpec(keys, hashing.LevelDBMaxBitsPerKey)) {
			t.Errorf("bitsPerKey=%d: want the filter of %d bits per key", bpk, hashing.LevelDBMaxBitsPerKey)
		}
	}
	if f := AppendRocksDBLegacy(nil, nil, 10); !bytes.Equal(f, make([]byte, 5)) {
		t.Errorf("no keys: %x, want Pebble's five zero bytes", f)
	}
	dst := bytes.Repeat([]byte{0xee}, 1<<16)[:3]
	got := AppendRocksDBLegacy(dst, keys, 10)
	if !bytes.Equal(got[:3], []byte{0xee, 0xee, 0xee}) || !bytes.Equal(got[3:], rocksDBLegacySpec(keys, 10)) {
		t.Error("AppendRocksDBLegacy into a slice with stale capacity is not dst followed by the filter")
	}
	// A run of one key counts once; the same key apart counts twice.
	a, b := []byte("a"), []byte("b")
	if !bytes.Equal(AppendRocksDBLegacy(nil, [][]byte{a, a, a, b}, 512), AppendRocksDBLegacy(nil, [][]byte{a, b}, 512)) {
		t.Error("a run of a key must count once")
	}
}

func TestRocksDBLegacyMayMatchEdges(t *testing.T) {
	key := []byte("key")
	for _, n := range []int{0, 1, 5} {
		if RocksDBLegacyMayMatch(make([]byte, n), key) {
			t.Errorf("a %d-byte filter matched", n)
		}
	}
	line := make([]byte, 64+5)
	binary.LittleEndian.PutUint32(line[65:], 1)
	if !RocksDBLegacyMayMatch(line, key) {
		t.Error("k = 0 must match")
	}
	line[64] = 6
	if RocksDBLegacyMayMatch(line, key) {
		t.Error("an empty line with k = 6 matched")
	}
	// Pebble divides by zero on these; a corrupt filter answers true.
	for _, lines := range []uint32{0, 65, 1 << 31} {
		binary.LittleEndian.PutUint32(line[65:], lines)
		if !RocksDBLegacyMayMatch(line, key) {
			t.Errorf("nLines=%d (inconsistent) must answer true", lines)
		}
	}
	// Other line sizes read as Pebble reads them: two 32-byte lines.
	binary.LittleEndian.PutUint32(line[65:], 2)
	for i := range 64 {
		line[i] = 0xff
	}
	if !RocksDBLegacyMayMatch(line, key) {
		t.Error("a full filter of 32-byte lines must match")
	}
}

func TestRocksDBLegacyFPR(t *testing.T) {
	const n, trials = 100_000, 1_000_000
	rng := rand.New(rand.NewPCG(14, 8))
	randomKey := func() []byte {
		return binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, rng.Uint64()), rng.Uint64())
	}
	keys := make([][]byte, n)
	for i := range keys {
		keys[i] = randomKey()
	}
	for _, bpk := range []int{5, 10, 16} {
		f := AppendRocksDBLegacy(nil, keys, bpk)
		for _, key := range keys {
			if !RocksDBLegacyMayMatch(f, key) {
				t.Fatalf("bitsPerKey=%d: false negative", bpk)
			}
		}
		fp := 0
		for range trials {
			if RocksDBLegacyMayMatch(f, randomKey()) {
				fp++
			}
		}
		// Inside a line the probes are a + j*d mod 512 with a the low nine
		// bits of h and d bits 17..25 (the rotation), so the model is exact
		// given the filter: average over the lines and the 2^18 (a, d) of
		// "all k probes set". The blocked model (independent probes) is
		// logged beside it: the pattern's 18 bits, and d with few low
		// bits set, cost this format a lot at high k.
		exact := legacyFPRGivenBits(f)
		lo, hi := fprstat.BinomialBounds(trials, exact, fprstat.Z999)
		m, k := 8*uint64(len(f)-5), uint32(hashing.LevelDBK(bpk))
		t.Logf("bitsPerKey=%d k=%d: measured %.5f, exact given the bits %.5f, blocked model %.5f", bpk, k, float64(fp)/trials, exact, FPR(m, n, k))
		if float64(fp) < lo || float64(fp) > hi {
			t.Errorf("bitsPerKey=%d: %d false positives outside [%.0f, %.0f] around %.5f", bpk, fp, lo, hi, exact)
		}
	}
}

// legacyFPRGivenBits is the chance that a key with a uniform hash passes a
// legacy filter of 64-byte lines: its line is h % nLines, and its k probes
// in it are a + j*d (mod 512) for a = h & 511 and d = h >> 17 & 511.
func legacyFPRGivenBits(f []byte) float64 {
	n := len(f) - 5
	k, lines := int(f[n]), n/64
	var sum float64
	for l := range lines {
		var w [8]uint64
		for i := range w {
			w[i] = binary.LittleEndian.Uint64(f[64*l+8*i:])
		}
		// rot[s] is the line with bit a taken from bit (a+s) mod 512.
		var rot [512][8]uint64
		for s := range rot {
			ws, bs := s>>6, uint(s&63)
			for q := range 8 {
				rot[s][q] = w[(q+ws)%8] >> bs
				if bs != 0 {
					rot[s][q] |= w[(q+ws+1)%8] << (64 - bs)
				}
			}
		}
		pass := 0
		for d := range 512 {
			acc := rot[0]
			for j := 1; j < k; j++ {
				r := &rot[j*d%512]
				for q := range acc {
					acc[q] &= r[q]
				}
			}
			for _, x := range acc {
				pass += bits.OnesCount64(x)
			}
		}
		sum += float64(pass) / (1 << 18)
	}
	return sum / float64(lines)
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

// TestRocksDBLegacyGolden compares with filters Pebble v1.1.5 wrote
// (testdata/rocksdb-legacy-pebble.golden, written by the bench module's
// interop tests with -update-golden): records of keys, bitsPerKey and
// filter length (uint32 little-endian each), then the filter.
func TestRocksDBLegacyGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/rocksdb-legacy-pebble.golden")
	if err != nil {
		t.Fatal(err)
	}
	records := 0
	for len(data) > 0 {
		if len(data) < 12 || uint64(len(data)-12) < uint64(binary.LittleEndian.Uint32(data[8:])) {
			t.Fatal("truncated golden record")
		}
		n, bpk, size := int(binary.LittleEndian.Uint32(data)), int(binary.LittleEndian.Uint32(data[4:])), int(binary.LittleEndian.Uint32(data[8:]))
		filter := data[12 : 12+size]
		data = data[12+size:]
		records++
		keys := goldenKeys(n)
		if got := AppendRocksDBLegacy(nil, keys, bpk); !bytes.Equal(got, filter) {
			t.Errorf("n=%d bitsPerKey=%d: AppendRocksDBLegacy differs from Pebble's filter", n, bpk)
		}
		for _, key := range keys {
			if !RocksDBLegacyMayMatch(filter, key) {
				t.Fatalf("n=%d bitsPerKey=%d: Pebble's filter misses %x", n, bpk, key)
			}
		}
	}
	if records == 0 {
		t.Fatal("no golden filters")
	}
}

func FuzzRocksDBLegacyMayMatch(f *testing.F) {
	f.Add(AppendRocksDBLegacy(nil, [][]byte{[]byte("a"), []byte("b")}, 10), []byte("a"))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0}, []byte{0x80})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 30, 2, 0, 0, 0}, []byte{0x80, 1})
	f.Fuzz(func(t *testing.T, filter, key []byte) {
		if got, want := RocksDBLegacyMayMatch(filter, key), rocksDBLegacyMayMatchSpec(filter, key); got != want {
			t.Fatalf("RocksDBLegacyMayMatch(%x, %x) = %v, Pebble %v", filter, key, got, want)
		}
	})
}

func FuzzAppendRocksDBLegacy(f *testing.F) {
	f.Add([]byte("abc\x80\xffdefgh"), uint8(10), int8(5))
	f.Fuzz(func(t *testing.T, data []byte, n uint8, bpk int8) {
		keys := make([][]byte, n)
		for i := range keys {
			if len(data) == 0 {
				break
			}
			l := int(data[0]) % (len(data) + 1)
			keys[i], data = data[:l], data[l:]
		}
		want := rocksDBLegacySpec(keys, rocksDBLegacyBitsPerKey(int(bpk)))
		if got := AppendRocksDBLegacy(nil, keys, int(bpk)); !bytes.Equal(got, want) {
			t.Fatalf("AppendRocksDBLegacy differs from Pebble's writer at bitsPerKey=%d", bpk)
		}
	})
}

// TestRocksDBLegacyConcurrent writes and reads filters from several
// goroutines at once (the writer shares a pool of hash scratch).
func TestRocksDBLegacyConcurrent(t *testing.T) {
	keys := formatKeys(rand.New(rand.NewPCG(14, 9)), 3000)
	want := rocksDBLegacySpec(keys, 10)
	done := make(chan bool)
	for g := range 4 {
		go func() {
			ok := true
			for i := range 50 {
				n := (g*50 + i) % len(keys)
				f := AppendRocksDBLegacy(nil, keys[:n], 10)
				ok = ok && bytes.Equal(f, rocksDBLegacySpec(keys[:n], 10)) && RocksDBLegacyMayMatch(want, keys[n])
			}
			done <- ok
		}()
	}
	for range 4 {
		if !<-done {
			t.Error("a concurrent writer or reader went wrong")
		}
	}
}

// TestRocksDBLegacyMayMatchHash checks the hash RocksDBLegacyMayMatch
// writes out against hashing.RocksDBHash: keys of every length 0..40 with
// bytes above 0x7f, probed in a filter about half full (k = 1 over 11
// lines), where a different hash gives a different answer for about half
// the keys.
func TestRocksDBLegacyMayMatchHash(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 5))
	f := AppendRocksDBLegacy(nil, formatKeys(rng, 5000), 1)
	const tries = 41 * 500
	mismatches, yes := 0, 0
	for i := range tries {
		key := make([]byte, i%41)
		for j := range key {
			key[j] = byte(rng.Uint32())
		}
		got := RocksDBLegacyMayMatch(f, key)
		if got != rocksDBLegacyMayMatchSpec(f, key) {
			mismatches++
		}
		if got {
			yes++
		}
	}
	if mismatches != 0 || yes == 0 || yes == tries {
		t.Fatalf("%d of %d keys answer differently from Pebble's reader (%d match)", mismatches, tries, yes)
	}
}
