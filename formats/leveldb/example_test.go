package leveldb_test

import (
	"encoding/binary"
	"fmt"

	"github.com/filterengine/filterengine/formats/leveldb"
)

// A LevelDB filter block entry: the bytes LevelDB, goleveldb and any
// reader of LevelDB tables expect, probed by key.
func Example() {
	keys := [][]byte{[]byte("apple"), []byte("banana"), []byte("cherry")}
	filter, err := leveldb.Append(nil, keys, 10)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(filter), "bytes, k =", filter[len(filter)-1])
	fmt.Println(leveldb.MayMatch(filter, []byte("banana")))
	fmt.Println(leveldb.MayMatch(filter, []byte("durian")))
	// Output:
	// 9 bytes, k = 6
	// true
	// false
}

// A table filter as Pebble v1.1 (and RocksDB's legacy Bloom filter)
// stores it: whole 64-byte lines, then k and the number of lines.
func ExampleAppendRocksDB() {
	keys := [][]byte{[]byte("apple"), []byte("banana"), []byte("cherry")}
	filter, err := leveldb.AppendRocksDB(nil, keys, 10)
	if err != nil {
		panic(err)
	}
	n := len(filter) - 5
	fmt.Println(len(filter), "bytes, k =", filter[n], "lines =", binary.LittleEndian.Uint32(filter[n+1:]))
	fmt.Println(leveldb.RocksDBMayMatch(filter, []byte("banana")))
	fmt.Println(leveldb.RocksDBMayMatch(filter, []byte("durian")))
	// Output:
	// 69 bytes, k = 6 lines = 1
	// true
	// false
}

// A negative budget is an error, not a filter: the engines' probe counts
// have no meaning there.
func ExampleAppendRocksDB_badBudget() {
	_, err := leveldb.AppendRocksDB(nil, [][]byte{[]byte("a")}, -1)
	fmt.Println(err)
	// Output: filterengine: invalid parameter: leveldb: -1 bits per key is negative
}

// A table writer that keeps one hash per key, as goleveldb's filter
// generator does, hashes with Hash and builds with AppendHashes.
func ExampleAppendHashes() {
	var hashes []uint32
	for _, key := range []string{"apple", "banana", "cherry"} {
		hashes = append(hashes, leveldb.Hash([]byte(key)))
	}
	filter, _ := leveldb.AppendHashes(nil, hashes, 10)
	fmt.Println(leveldb.MayMatch(filter, []byte("cherry")), leveldb.Probes(10))
	// Output: true 6
}
