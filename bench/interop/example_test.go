package interop_test

import (
	"fmt"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/vfs"
	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/opt"
	"github.com/syndtr/goleveldb/leveldb/storage"
	"github.com/syndtr/goleveldb/leveldb/util"

	"github.com/filterengine/filterengine/bench/interop"
)

// goleveldb builds and consults its table filters through LevelDBFilter:
// the bytes are LevelDB's, so tables stay readable by goleveldb's own
// filter.NewBloomFilter(10) and by C++ LevelDB.
func ExampleLevelDBFilter() {
	db, err := leveldb.Open(storage.NewMemStorage(), &opt.Options{Filter: interop.LevelDBFilter(10)})
	if err != nil {
		panic(err)
	}
	defer db.Close()
	for i := range 1000 {
		if err := db.Put(fmt.Appendf(nil, "user:%04d", i), []byte("v"), nil); err != nil {
			panic(err)
		}
	}
	if err := db.CompactRange(util.Range{}); err != nil { // write tables, with filters
		panic(err)
	}
	v, err := db.Get([]byte("user:0042"), nil)
	fmt.Println(string(v), err)
	_, err = db.Get([]byte("user:9999"), nil)
	fmt.Println(err)
	// Output:
	// v <nil>
	// leveldb: not found
}

// Pebble builds and consults its table filters through PebbleFilterPolicy:
// the bytes are RocksDB's legacy filter, as Pebble's bloom.FilterPolicy(10)
// writes them.
func ExamplePebbleFilterPolicy() {
	opts := &pebble.Options{FS: vfs.NewMem()}
	opts.Levels = []pebble.LevelOptions{{FilterPolicy: interop.PebbleFilterPolicy(10)}}
	db, err := pebble.Open("", opts)
	if err != nil {
		panic(err)
	}
	defer db.Close()
	for i := range 1000 {
		if err := db.Set(fmt.Appendf(nil, "user:%04d", i), []byte("v"), nil); err != nil {
			panic(err)
		}
	}
	if err := db.Flush(); err != nil { // write a table, with its filter
		panic(err)
	}
	v, closer, err := db.Get([]byte("user:0042"))
	fmt.Println(string(v), err)
	closer.Close()
	_, _, err = db.Get([]byte("user:9999"))
	fmt.Println(err)
	// Output:
	// v <nil>
	// pebble: not found
}
