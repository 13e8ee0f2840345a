package interop

import (
	"encoding/binary"
	"math/rand/v2"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/bloom"
	"github.com/syndtr/goleveldb/leveldb/filter"
	"github.com/syndtr/goleveldb/leveldb/util"

	"github.com/filterengine/filterengine/formats/leveldb"
)

// Format names.
const (
	LevelDB       = "leveldb"
	RocksDBLegacy = "rocksdb-legacy"
)

// Impl is one implementation of a format, as the benchmarks and the bench
// command's experiment g time it: Build appends the filter of keys to dst
// (a writer per call, keys added one by one for the peers), MayMatch
// answers for one key the way the engine's table reader calls it.
type Impl struct {
	Format, Name string
	Build        func(dst []byte, keys [][]byte, bitsPerKey int) []byte
	MayMatch     func(filter, key []byte) bool
}

// Impls returns our implementation of each format followed by its peer's.
func Impls() []Impl {
	leveldbPeer := filter.NewBloomFilter(10) // Contains reads k from the filter
	pebblePeer := bloom.FilterPolicy(10)
	return []Impl{
		{LevelDB, "filterengine", must(leveldb.Append), leveldb.MayMatch},
		{LevelDB, "goleveldb", goleveldbFilter, leveldbPeer.Contains},
		{RocksDBLegacy, "filterengine", must(leveldb.AppendRocksDB), leveldb.RocksDBMayMatch},
		{RocksDBLegacy, "pebble", pebbleFilter,
			func(f, key []byte) bool { return pebblePeer.MayContain(pebble.TableFilter, f, key) }},
	}
}

// must adapts one of our writers to Impl.Build, whose callers pass valid
// budgets: an error there is a bug of the caller.
func must(build func([]byte, [][]byte, int) ([]byte, error)) func([]byte, [][]byte, int) []byte {
	return func(dst []byte, keys [][]byte, bitsPerKey int) []byte {
		f, err := build(dst, keys, bitsPerKey)
		if err != nil {
			panic(err)
		}
		return f
	}
}

// goleveldbFilter appends the filter goleveldb's generator writes for keys
// to dst.
func goleveldbFilter(dst []byte, keys [][]byte, bitsPerKey int) []byte {
	return generate(dst, filter.NewBloomFilter(bitsPerKey).NewGenerator(), keys)
}

// generate adds keys to a goleveldb filter generator, one by one, and
// appends its filter to dst.
func generate(dst []byte, g filter.FilterGenerator, keys [][]byte) []byte {
	for _, key := range keys {
		g.Add(key)
	}
	buf := util.NewBuffer(dst)
	g.Generate(buf)
	return buf.Bytes()
}

// pebbleFilter appends the table filter Pebble's bloom policy writes for
// keys to dst.
func pebbleFilter(dst []byte, keys [][]byte, bitsPerKey int) []byte {
	return finish(dst, bloom.FilterPolicy(bitsPerKey).NewWriter(pebble.TableFilter), keys)
}

// finish adds keys to a Pebble filter writer, one by one, and appends its
// filter to dst.
func finish(dst []byte, w pebble.FilterWriter, keys [][]byte) []byte {
	for _, key := range keys {
		w.AddKey(key)
	}
	return w.Finish(dst)
}

// KeyLen is the length of the timed keys, a typical storage-engine user
// key.
const KeyLen = 16

// Keys returns n distinct random KeyLen-byte keys in one backing array;
// different seeds give disjoint sets with overwhelming probability
// (2^-128 per pair).
func Keys(n int, seed uint64) [][]byte {
	rng := rand.New(rand.NewPCG(seed, 0x1e7e1db))
	buf := make([]byte, n*KeyLen)
	keys := make([][]byte, n)
	for i := range keys {
		k := buf[i*KeyLen : (i+1)*KeyLen : (i+1)*KeyLen]
		binary.LittleEndian.PutUint64(k, rng.Uint64())
		binary.LittleEndian.PutUint64(k[8:], rng.Uint64())
		keys[i] = k
	}
	return keys
}
