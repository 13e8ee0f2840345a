// Package engine is the pure-Go core every filter family shares: the key
// hash, the sizing and false-positive mathematics, 64-byte aligned bit
// storage (backed by transparent huge pages when large), the serialization
// envelope and the Filter interface. It imports nothing of this module.
//
// Hashing: a key is a []byte and its hash is XXH3-64 with the filter's seed
// (0 by default). Every family derives all probe positions from that one
// 64-bit hash, so AddHash/TestHash take pre-hashed keys and batch kernels
// work on []uint64 hashes. HashUint64(k) equals Hash of the 8 little-endian
// bytes of k, so an integer key and its bytes land in the same place.
//
// Saved filters: every family writes the same envelope (a 128-byte
// checksummed header, then the payload at a 64-byte offset) through
// MarshalBinary, WriteTo and WriteFile, and reads it back three ways:
//
//   - Decode, Read, UnmarshalBinary and ReadFrom copy the payload into new
//     memory, always verifying the checksum.
//   - Open(path) maps the file copy-on-write and uses the payload in
//     place: a few system calls plus, unless WithoutChecksum, one checksum
//     pass over the file; writes go to private pages and never reach the
//     file. Close unmaps. Off Linux the file is read instead.
//   - View(data) uses a caller's bytes in place when the payload is
//     8-byte aligned, and copies them otherwise.
//
// Open starts at once and shares the page cache between processes, but
// a mapped file gets the page cache's pages (4 KiB on most file systems)
// where a loaded filter of 16 MiB and up gets 2 MiB pages: random probes
// of a mapped filter far larger than the TLB's reach (hundreds of MiB)
// pay page walks that a loaded one does not. Read gives the fastest
// probes, Open the fastest start.
//
// Truncated, corrupted (unless WithoutChecksum) and foreign files are
// errors at Open, never faults later; a file another process truncates
// while it is open is the one case that can fault, as for every mapping.
// WriteFile saves atomically (temporary file, fsync, rename, directory
// fsync), so a crash leaves the old file or the new one, whole; words are
// read atomically, so a family's concurrent writers may run during it.
//
// XXH64 (the 64-bit xxHash, not XXH3) is here too for formats that
// prescribe it: Parquet's split-block Bloom filter hashes every value with
// XXH64, seed 0. XXH64Uint64 is its scalar form for one 8-byte value.
package engine
