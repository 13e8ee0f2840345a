// Package engine is what every filter family shares and a user touches:
// the options every constructor takes (WithSeed, WithHugePages,
// WithoutChecksum), the errors every family wraps (ErrParam, ErrFormat,
// ErrMemory), the key hash (Hash and its Seed, String and Uint64 forms),
// the sizing and false-positive mathematics of the standard Bloom filter
// (OptimalBits, OptimalK, FPR, FPRFromFill, EstimateCount; each family's
// own model is its filters' ModelFPR), the bounds MaxK and MaxBits, and
// the Filter interface. It imports nothing of this module but its
// internal packages, and its doc states the contract every family holds.
//
// # The family contract
//
// Every family holds to one set of names, written here once. The
// membership families (classic, blocked, counting, shifting's ShBF_M)
// have, for their type T:
//
//   - New(n, p, opts...) for n expected keys at false-positive rate p, and
//     NewMK(m, k, opts...) for m bits (counters for counting) and k probes;
//   - Decode(data, opts...) and Read(r, opts...), the methods
//     MarshalBinary, UnmarshalBinary, WriteTo and ReadFrom, and
//     MarshalText and UnmarshalText so that JSON and text formats round
//     trip; Open(path, opts...), View(data, opts...) and WriteFile(path)
//     for saved files;
//   - Clone() *T, M() uint64 (bits, or counters), K() uint32,
//     SizeBytes() uint64, EstimatedCount() float64 and ModelFPR(n uint64)
//     float64, the model's false-positive rate after n distinct keys;
//   - TestAndAdd(key) bool and TestAndAddHash(h) bool, which report
//     whether the key tested present before it was added;
//   - a one-line String() of at most 200 bytes;
//   - the single-key and batch forms of Filter, extended by AddUint64,
//     TestUint64, AddString and TestString. The batch forms answer
//     exactly what the single-key forms answer, on every kernel.
//
// Counting adds Remove in every key form (Remove, RemoveString,
// RemoveUint64, RemoveHash, RemoveHashes, RemoveKeys, RemoveUint64s). Spatial
// keeps Insert and Check for its areas and follows the same names
// elsewhere. Shifting's Association and Multiplicity, and the types built
// on a family (blocked's Scalable, Window and Narrow; classic's
// Dynamic and Retouched), follow the contract where it applies.
//
// Concurrency, the one rule: plain reads (Test and its forms) are safe
// from many goroutines at once. A writer needs exclusive use, or the
// *Concurrent forms, which the filters of classic, blocked, counting and
// shifting offer as the same set: AddConcurrent, AddHashConcurrent,
// AddHashesConcurrent, AddUint64sConcurrent, TestConcurrent,
// TestHashConcurrent, and the concurrent dedup TestAndAddConcurrent,
// TestAndAddHashConcurrent, TestAndAddUint64Concurrent and
// TestAndAddStringConcurrent. Counting adds its Remove forms to that set;
// blocked's Window has the same set, rotating beside it; spatial's writes
// are atomic in every form. Every *Concurrent call may run beside every
// other and beside TestConcurrent: a key whose add returned tests present
// to every goroutine from then on (until counting removes it or a Window
// ages it out); a concurrent dedup reports whether its key tested present
// before its own add, and of calls racing for one key that none had added
// (and that is no false positive of the others' keys), at least one
// returns false, so a stream deduplicated by many goroutines passes each
// new key on at least once.
//
// Misuse: a zero value of a filter type never answers "present" and never
// fails with an index or nil-pointer error. Its accessors answer as an
// empty filter; a write, and in classic, counting, spatial and shifting
// every answer, panics with a message naming the constructor
// ("blocked.Filter: zero value, use blocked.New"). A batch out slice shorter than the keys
// panics with one readable message. Bad parameters are errors wrapping
// ErrParam and bad bytes errors wrapping ErrFormat; neither ever
// panics.
//
// Memory: a filter whose array the system will not provide is an error
// wrapping ErrMemory, never the Go runtime's fatal out-of-memory, which no
// recover catches. Arrays of 4 MiB and more (any size with
// HugePagesAlways) are anonymous memory mapped for the filter alone, on
// Linux and the other Unix systems, advised for transparent huge pages on
// Linux unless HugePagesNever; a mapping the system refuses (over the
// commit limit, an address-space limit such as ulimit -v) fails the call
// that asked for it: every constructor, decoder (Decode, Read,
// UnmarshalBinary, ReadFrom), Open and View, with the receiver of a
// failed UnmarshalBinary or ReadFrom unchanged. A growth step does not
// fail the write that triggers it: a Scalable whose next stage, or a
// Dynamic whose next row, is refused keeps adding to its newest stage or
// row, so no key is lost and only the false-positive rate climbs above
// the model (Window allocates all its generations at construction).
// Clone, which has no error result, panics with the error wrapping
// ErrMemory. Smaller arrays live on the Go heap, as does every array on
// systems without mmap. Physical pages come as the array is written, so
// on a machine whose memory is overcommitted the kernel's OOM killer may
// still end a process that touches them, as for any program.
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
//     file. The mapping is not charged against the system's commit limit
//     up front (only the pages written are), so a file larger than memory
//     and swap opens. Close unmaps. Off Linux the file is read instead.
//   - View(data) uses a caller's bytes in place when the payload is
//     8-byte aligned, and copies them otherwise.
//
// Open starts at once and shares the page cache between processes. A
// mapped filter is as fast to probe as a loaded one (which gets 2 MiB
// pages from 4 MiB up) only where its file is mapped with 2 MiB pages
// too, and that depends on the page cache, not on Open: on Linux with
// transparent huge pages not "never" and a file system with large folios
// (ext4 from Linux 6.16, XFS), a file WriteFile saved (it writes 2 MiB at
// 2 MiB-aligned offsets) or that was not in the page cache when Open's
// mapping first read it comes in as 2 MiB folios and is mapped whole.
// A file the page cache already holds in smaller folios (one copied by
// cp or written in small or unaligned writes; the first part of one read
// with read(2) from a cold cache, whose read-ahead starts small) keeps
// them until it leaves the cache, and a mapping gets 4 KiB pages there:
// random probes of a filter far larger than the TLB's reach (hundreds of
// MiB) then pay page walks a loaded filter does not. Where no file gets
// 2 MiB pages (THP "never", file systems without large folios, systems
// other than Linux) Read gives the faster probes and Open the faster
// start. The first probes after Open also pay the
// page faults (one per 2 MiB or per 4 KiB page); Open with the checksum
// takes them all up front.
//
// Truncated, corrupted (unless WithoutChecksum) and foreign files are
// errors at Open, never faults later; a file another process truncates
// while it is open is the one case that can fault, as for every mapping.
// WriteFile saves atomically (temporary file, fsync, rename, directory
// fsync), so a crash leaves the old file or the new one, whole; onto a
// symbolic link it replaces the file the link names and keeps the link;
// words are read atomically, so a family's concurrent writers may run
// during it.
//
// Formats that prescribe another hash carry it: Parquet's split-block
// Bloom filter hashes every value with XXH64, seed 0 (parquet.Hash in
// formats/parquet); LevelDB's and RocksDB's filters their 32-bit Bloom
// hash (leveldb.Hash, leveldb.RocksDBHash in formats/leveldb).
package engine
