// Package hashing holds the hash forms the families and formats compute
// beside engine's public ones: XXH3's 8-byte path with its seed constant
// hoisted (the form hot loops inline), Lemire's range reduction, and
// XXH64 (Parquet's split-block filter, formats/parquet, and asm's batch
// form of it).
package hashing
