// Package hashing holds the hash forms the families and formats compute
// beside engine's public ones: XXH3's 8-byte path with its seed constant
// hoisted (the form hot loops inline), Lemire's range reduction, XXH64
// (Parquet's split-block filter), and the 32-bit Bloom hash of LevelDB and
// RocksDB with its divide-free remainder.
package hashing
