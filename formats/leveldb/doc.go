// Package leveldb is the Bloom filter of LevelDB's tables and RocksDB's
// legacy full filter as Pebble writes it: the bytes those engines store
// in a table's filter block, written and read byte for byte as they do.
//
// LevelDB's filter (util/bloom.cc; goleveldb's filter.NewBloomFilter):
// Append writes it, AppendHashes from keys already hashed with Hash, and
// MayMatch reads it with KeyMayMatch's semantics. It is a standard Bloom
// filter of max(64, n*bitsPerKey) bits (whole bytes) followed by k: every
// key sets k bits h, h+d, ..., h+(k-1)d (mod 2^32) of the whole array,
// each taken mod its size, with h = Hash(key) and d = h rotated right by
// 17 bits. Duplicate keys count.
//
// RocksDB's legacy full filter (format_version < 5,
// "rocksdb.BuiltinBloomFilter"), as Pebble v1.1's bloom package writes it
// for every table: AppendRocksDB writes it, AppendRocksDBHashes from keys
// already hashed with RocksDBHash, and RocksDBMayMatch reads it as
// Pebble's MayContain does. It is whole 64-byte lines (their count made
// odd), then k and the line count: a key's k probes, with the same double
// hashing, stay in line h % nLines. A run of one key counts once.
//
// Shared by both: the hash (LevelDB's murmur-like BloomHash, seed
// 0xbc9f1d34; RocksDB's differs only in sign-extending the last 1..3
// bytes, so Hash and RocksDBHash disagree exactly when such a byte is
// 0x80 or more) and the probe count, Probes: floor(0.69*bitsPerKey) in
// [1, 30]. Neither writer divides per probe: the remainders h % nBits and
// h % nLines take two multiplications (Lemire, Kaser & Kurz, 2019).
//
// Contract. The writers append to dst and return the result: exactly the
// engine's bytes for every budget the engine takes, 0 bits per key
// included (LevelDB: its 64-bit minimum, k = 1; Pebble: one line, k = 1).
// A negative budget, where the engines' probe counts depend on the
// platform, or one that makes the filter larger than MaxBits (just under
// 512 MiB, as far as a 32-bit hash reaches), is an error wrapping
// engine.ErrParam, and dst comes back unchanged. The readers take any
// bytes: no panic, no read outside the filter, at most 30 (LevelDB) or
// 255 (RocksDB) probes. Where Pebble's 32-bit arithmetic divides by zero
// (no lines, more lines than bytes, a line size that wraps to 0) the
// RocksDB reader answers true: a corrupt filter must not hide keys.
// Every function is safe for concurrent use.
//
// False-positive rates, measured on 1e6 random 16-byte non-members after
// 1e5 members (TestFPR):
//
//	bits/key  k   LevelDB (Bloom model)   RocksDB legacy (blocked model)
//	       5  3   14.2%   (9.2%)          9.37%  (9.42%)
//	      10  6   1.44%   (0.84%)         1.15%  (0.98%)
//	      16  11  0.064%  (0.046%)        0.36%  (0.090%)
//
// LevelDB's second hash is the first rotated, not an independent one,
// which costs it against the Bloom model of independent probes; RocksDB's
// probes inside a line depend on only 18 bits of the hash (a + j*d mod
// 512), so its rate leaves the blocked model (Putze, Sanders & Singler)
// behind as k grows. Its test checks the rate against the one computed
// exactly from the filter's bits.
package leveldb
