// Package interop checks this library's storage-engine filter formats
// against the engines that read them, and holds adapters a user can copy:
//
//   - leveldb.Append / MayMatch (formats/leveldb) against goleveldb's
//     filter.NewBloomFilter (C++ LevelDB 1.18+'s built-in Bloom filter);
//     LevelDBFilter is the adapter that plugs it into goleveldb as its
//     filter.Filter.
//   - leveldb.AppendRocksDB / RocksDBMayMatch against Pebble
//     v1.1's bloom package (RocksDB's legacy full filter);
//     PebbleFilterPolicy plugs it into Pebble as its FilterPolicy.
//
// The tests compare bytes and answers in both directions over random key
// sets; the benchmarks time both sides on the same keys:
//
//	go test -run '^$' -bench . -count 6 ./interop
//
// With -update-golden the tests rewrite the library's golden files
// (formats/leveldb/testdata/leveldb-goleveldb.golden and
// rocksdb-legacy-pebble.golden there) from the peers' output;
// without it they check those files still equal what the peers write.
package interop
