package interop

import (
	"bytes"
	"encoding/binary"
	"flag"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/bloom"
	"github.com/syndtr/goleveldb/leveldb/filter"
	"github.com/syndtr/goleveldb/leveldb/util"

	"github.com/filterengine/filterengine/formats/leveldb"
	"github.com/filterengine/filterengine/internal/testkit/enginegolden"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite the library's LevelDB and Pebble golden filters from the peers")

// bitsPerKeys are the budgets every property runs at.
var bitsPerKeys = []int{0, 1, 2, 5, 10, 16, 20, 30, 40, 100}

// keySets returns the key sets of the properties: empty, single, a key
// repeated in a run and far apart, long keys, every length 0..40 with bytes
// across 0..255, and random sets of random lengths.
func keySets(rng *rand.Rand) map[string][][]byte {
	random := func(n, maxLen int) [][]byte {
		keys := make([][]byte, n)
		for i := range keys {
			keys[i] = make([]byte, rng.IntN(maxLen+1))
			for j := range keys[i] {
				keys[i][j] = byte(rng.Uint32())
			}
		}
		return keys
	}
	sets := map[string][][]byte{
		"empty":          nil,
		"single":         {[]byte("k\x80")},
		"single-empty":   {{}},
		"long":           random(50, 5000),
		"random-100":     random(100, 40),
		"random-10000":   random(10000, 40),
		"high-bytes-all": nil,
		"lengths-0..40":  nil,
	}
	for l := 0; l <= 40; l++ {
		for range 25 {
			key := make([]byte, l)
			for j := range key {
				key[j] = byte(rng.Uint32())
			}
			sets["lengths-0..40"] = append(sets["lengths-0..40"], key)
		}
	}
	// Every tail of 1..3 bytes with every byte value, after 0..1 words.
	for words := range 2 {
		for tail := 1; tail <= 3; tail++ {
			for v := range 256 {
				key := bytes.Repeat([]byte{byte(v)}, 4*words+tail)
				key[0] = byte(tail)
				sets["high-bytes-all"] = append(sets["high-bytes-all"], key)
			}
		}
	}
	dups := random(500, 24)
	for i := 1; i < len(dups); i += 7 {
		dups[i] = dups[i-1] // adjacent repeats
	}
	for i := 3; i < len(dups); i += 11 {
		dups[i] = dups[rng.IntN(i)] // repeats apart
	}
	sets["duplicates"] = dups
	return sets
}

// probes are the keys each side's reader is asked about: the members and
// as many others.
func probes(rng *rand.Rand, keys [][]byte) [][]byte {
	out := append([][]byte(nil), keys...)
	for range max(len(keys), 200) {
		key := make([]byte, rng.IntN(41))
		for j := range key {
			key[j] = byte(rng.Uint32())
		}
		out = append(out, key)
	}
	return out
}

func TestLevelDBEqualsGoleveldb(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 10))
	for name, keys := range keySets(rng) {
		asked := probes(rng, keys)
		for _, bpk := range bitsPerKeys {
			theirs := goleveldbFilter(nil, keys, bpk)
			ours := appendLevelDB(t, nil, keys, bpk)
			if !bytes.Equal(ours, theirs) {
				t.Fatalf("%s, %d bits per key: leveldb.Append differs from goleveldb (%d vs %d bytes)", name, bpk, len(ours), len(theirs))
			}
			if adapted := generate(nil, LevelDBFilter(bpk).NewGenerator(), keys); !bytes.Equal(adapted, theirs) {
				t.Fatalf("%s, %d bits per key: LevelDBFilter's generator differs from goleveldb", name, bpk)
			}
			// Both readers on both filters: the same answer for every key.
			peer := filter.NewBloomFilter(bpk)
			for _, f := range [][]byte{ours, theirs} {
				for _, key := range asked {
					if a, b := leveldb.MayMatch(f, key), peer.Contains(f, key); a != b {
						t.Fatalf("%s, %d bits per key: MayMatch(%x) = %v, goleveldb's Contains %v", name, bpk, key, a, b)
					}
				}
			}
		}
	}
}

func TestRocksDBLegacyEqualsPebble(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 11))
	for name, keys := range keySets(rng) {
		asked := probes(rng, keys)
		for _, bpk := range bitsPerKeys {
			theirs := pebbleFilter(nil, keys, bpk)
			ours := appendRocksDB(t, nil, keys, bpk)
			if !bytes.Equal(ours, theirs) {
				t.Fatalf("%s, %d bits per key: leveldb.AppendRocksDB differs from Pebble (%d vs %d bytes)", name, bpk, len(ours), len(theirs))
			}
			if adapted := finish(nil, PebbleFilterPolicy(bpk).NewWriter(pebble.TableFilter), keys); !bytes.Equal(adapted, theirs) {
				t.Fatalf("%s, %d bits per key: PebbleFilterPolicy's writer differs from Pebble", name, bpk)
			}
			peer := bloom.FilterPolicy(bpk)
			for _, f := range [][]byte{ours, theirs} {
				for _, key := range asked {
					if a, b := leveldb.RocksDBMayMatch(f, key), peer.MayContain(pebble.TableFilter, f, key); a != b {
						t.Fatalf("%s, %d bits per key: RocksDBMayMatch(%x) = %v, Pebble's MayContain %v", name, bpk, key, a, b)
					}
				}
			}
		}
	}
}

// TestRocksDBLegacyEqualsPebbleAtEveryBitsPerKey compares with Pebble's
// writer at every budget from 0 to 100 and a few past it, on 1000 random
// keys and on one key: 0 bits per key is one line with k = 1 for Pebble
// (69 bytes), not the filter of 1 bit per key.
func TestRocksDBLegacyEqualsPebbleAtEveryBitsPerKey(t *testing.T) {
	many := Keys(1000, 15)
	for _, keys := range [][][]byte{many, many[:1]} {
		for bpk := 0; bpk <= 1000; bpk++ {
			if bpk > 100 && bpk%97 != 0 {
				continue
			}
			ours, theirs := appendRocksDB(t, nil, keys, bpk), pebbleFilter(nil, keys, bpk)
			if !bytes.Equal(ours, theirs) {
				t.Fatalf("%d keys at %d bits per key: %d bytes (first %#x), Pebble %d (first %#x)", len(keys), bpk, len(ours), ours[0], len(theirs), theirs[0])
			}
		}
	}
	// LevelDB's 0 is its 64-bit minimum with k = 1, as goleveldb writes.
	for bpk := 0; bpk <= 100; bpk++ {
		if ours, theirs := appendLevelDB(t, nil, many, bpk), goleveldbFilter(nil, many, bpk); !bytes.Equal(ours, theirs) {
			t.Fatalf("1000 keys at %d bits per key: %d bytes, goleveldb %d", bpk, len(ours), len(theirs))
		}
	}
}

// TestHashesDifferInTheTail pins what the two peers taught: goleveldb's
// hash is leveldb.Hash, and Pebble's single-key filters follow
// leveldb.RocksDBHash, which differs exactly when a tail byte is >= 0x80.
func TestHashesDifferInTheTail(t *testing.T) {
	for l := 0; l <= 11; l++ {
		for v := range 256 {
			key := bytes.Repeat([]byte{byte(v)}, l)
			if got, want := leveldb.Hash(key), util.Hash(key, 0xbc9f1d34); got != want {
				t.Fatalf("LevelDBHash(%x) = %#x, goleveldb %#x", key, got, want)
			}
			// Pebble's hash is unexported; a one-key filter at 512 bits per
			// key has nLines = 1, so the line is a function of the hash
			// mod 512 and delta mod 512 only.
			keys := [][]byte{key}
			if !bytes.Equal(appendRocksDB(t, nil, keys, 40), pebbleFilter(nil, keys, 40)) {
				t.Fatalf("one-key filter of %x differs from Pebble", key)
			}
			differ := leveldb.Hash(key) != leveldb.RocksDBHash(key)
			if tailHigh := l%4 != 0 && v >= 0x80; differ != tailHigh {
				t.Fatalf("key %x: hashes differ = %v, want %v (tail byte >= 0x80)", key, differ, tailHigh)
			}
		}
	}
}

// TestReadersAgreeOnHostileFilters feeds both readers arbitrary bytes
// (short, k above 30, line counts that do not divide) wherever the peer
// does not panic.
func TestReadersAgreeOnHostileFilters(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 12))
	goleveldbReader := filter.NewBloomFilter(10)
	pebbleReader := bloom.FilterPolicy(10)
	key := make([]byte, 0, 40)
	for range 200_000 {
		f := make([]byte, rng.IntN(300))
		for i := range f {
			f[i] = byte(rng.Uint32())
		}
		if len(f) > 5 && rng.IntN(2) == 0 {
			f[len(f)-5] = byte(rng.IntN(32))
			binary.LittleEndian.PutUint32(f[len(f)-4:], uint32(1+rng.IntN(8)))
		}
		key = key[:rng.IntN(40)]
		for i := range key {
			key[i] = byte(rng.Uint32())
		}
		if a, b := leveldb.MayMatch(f, key), goleveldbReader.Contains(f, key); a != b {
			t.Fatalf("MayMatch(%x, %x) = %v, goleveldb %v", f, key, a, b)
		}
		if pebbleAccepts(f) {
			if a, b := leveldb.RocksDBMayMatch(f, key), pebbleReader.MayContain(pebble.TableFilter, f, key); a != b {
				t.Fatalf("RocksDBMayMatch(%x, %x) = %v, Pebble %v", f, key, a, b)
			}
		} else if !leveldb.RocksDBMayMatch(f, key) {
			t.Fatalf("a filter Pebble cannot read (it divides by zero) must answer true: %x", f)
		}
	}
}

// pebbleAccepts reports whether Pebble's reader answers on f rather than
// dividing by zero.
func pebbleAccepts(f []byte) bool {
	if len(f) <= 5 {
		return true
	}
	n := uint32(len(f) - 5)
	lines := binary.LittleEndian.Uint32(f[n+1:])
	return lines != 0 && 8*(n/lines) != 0
}

func FuzzLevelDBEqualsGoleveldb(f *testing.F) {
	f.Add([]byte("abc\x80\xffdefgh"), uint8(10), uint8(10))
	f.Fuzz(func(t *testing.T, data []byte, n, bpk uint8) {
		keys := enginegolden.Cut(data, int(n))
		if !bytes.Equal(appendLevelDB(t, nil, keys, int(bpk%50)), goleveldbFilter(nil, keys, int(bpk%50))) {
			t.Fatalf("leveldb.Append differs from goleveldb at %d bits per key", bpk%50)
		}
	})
}

func FuzzRocksDBLegacyEqualsPebble(f *testing.F) {
	f.Add([]byte("abc\x80\xffdefgh"), uint8(10), uint8(10))
	f.Add([]byte("abc\x80\xffdefgh"), uint8(10), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, n, bpk uint8) {
		keys := enginegolden.Cut(data, int(n))
		b := int(bpk % 200)
		if !bytes.Equal(appendRocksDB(t, nil, keys, b), pebbleFilter(nil, keys, b)) {
			t.Fatalf("leveldb.AppendRocksDB differs from Pebble at %d bits per key", b)
		}
	})
}

func FuzzReadersEqualPeers(f *testing.F) {
	f.Add(appendLevelDB(f, nil, [][]byte{[]byte("a")}, 10), []byte("a"))
	f.Add(appendRocksDB(f, nil, [][]byte{[]byte("a")}, 10), []byte("a"))
	f.Fuzz(func(t *testing.T, filt, key []byte) {
		if a, b := leveldb.MayMatch(filt, key), filter.NewBloomFilter(10).Contains(filt, key); a != b {
			t.Fatalf("MayMatch = %v, goleveldb %v", a, b)
		}
		if pebbleAccepts(filt) {
			if a, b := leveldb.RocksDBMayMatch(filt, key), bloom.FilterPolicy(10).MayContain(pebble.TableFilter, filt, key); a != b {
				t.Fatalf("RocksDBMayMatch = %v, Pebble %v", a, b)
			}
		}
	})
}

// TestGoldenFilesArePeersOutput checks (or, with -update-golden, writes)
// the library's golden filters: what the peers write for
// enginegolden.Budgets.
func TestGoldenFilesArePeersOutput(t *testing.T) {
	for _, g := range []struct {
		path string
		peer func([]byte, [][]byte, int) []byte
	}{
		{"../../formats/leveldb/testdata/leveldb-goleveldb.golden", goleveldbFilter},
		{"../../formats/leveldb/testdata/rocksdb-legacy-pebble.golden", pebbleFilter},
	} {
		var cases []enginegolden.Case
		for _, c := range enginegolden.Budgets {
			cases = append(cases, enginegolden.Case{N: c[0], BitsPerKey: c[1], Filter: g.peer(nil, enginegolden.Keys(c[0]), c[1])})
		}
		want := enginegolden.Encode(cases)
		if *updateGolden {
			if err := os.WriteFile(g.path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(g.path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what the peer writes; rerun with -update-golden", g.path)
		}
	}
}

// appendLevelDB and appendRocksDB are our writers at a valid budget.
func appendLevelDB(t testing.TB, dst []byte, keys [][]byte, bitsPerKey int) []byte {
	return mustBuild(t, "leveldb.Append", leveldb.Append, dst, keys, bitsPerKey)
}

func appendRocksDB(t testing.TB, dst []byte, keys [][]byte, bitsPerKey int) []byte {
	return mustBuild(t, "leveldb.AppendRocksDB", leveldb.AppendRocksDB, dst, keys, bitsPerKey)
}

func mustBuild(t testing.TB, name string, build func([]byte, [][]byte, int) ([]byte, error), dst []byte, keys [][]byte, bitsPerKey int) []byte {
	t.Helper()
	f, err := build(dst, keys, bitsPerKey)
	if err != nil {
		t.Fatalf("%s at %d bits per key: %v", name, bitsPerKey, err)
	}
	return f
}
