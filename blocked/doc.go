// Package blocked is the cache-line-blocked Bloom filter, the flagship for
// speed: every key reads or writes exactly one 64-byte line, so a test
// costs one cache miss at most, and the batch kernels in asm build a key's
// whole 512-bit mask in vector registers and test it with one AND-NOT.
//
// Layout. The array is lines*8 little-endian 64-bit words, 64-byte
// aligned (huge-page memory from 4 MiB up, see store.Storage). A key with
// hash h = engine.HashSeed(key, seed) lives in line
// hashing.Reduce(h, lines) (the high word of h*lines, which the high bits
// of h decide). Inside the line, g = h*0x9e3779b97f4a7c15 gives every one
// of the eight words one bit, (g >> (58-6w)) & 63, per round of eight
// probes; k/8 full rounds (g multiplied again between rounds) and, for
// k%8 != 0, a last round in the k%8 words starting at word (g>>13)&7.
//
// False-positive model (Putze, Sanders & Singler 2007): line loads are
// Poisson with mean lambda = 512n/m, and a line holding i keys answers a
// foreign key yes with chance (1 - (1-1/64)^(i*k/8))^k; FPR averages that
// over the loads. New picks the k and bits per key that reach p with the
// fewest bits by this model: p = 1% takes k = 6 and 9.97 bits per key,
// p = 0.1% k = 9 and 15.60 (a standard Bloom filter: 9.59 and 14.38).
// Measured on 1e6 absent keys after 1e5 added (TestFPRModel): 0.999% at
// p = 1% (model 0.999%), 0.102% at p = 0.1% (model 0.100%), 1.058% for
// k = 8 at 10 bits per key (model 1.047%).
//
// Single-key path. Each round of eight probes is unrolled over the words
// with constant word indices (asm.BlockedShift is the one statement of
// the bit formula, and the vector kernels' shift table comes from it): a
// word's test mask is built from the hash alone, a constant shift, a
// rotate and, for the last round's window, one table load, so only an OR
// with the word and an AND depend on the line, and the line is an
// *[8]uint64 formed without bounds checks. Test, Add, TestAndAdd and
// the Uint64 forms are each one call, inlined into the caller, to asm's
// single-key kernel (asm.BlockedTestKey and its siblings): on amd64 from
// avx2 up, for k <= 8 (p = 1% takes k = 6) it hashes an 8-byte key
// (XXH3's formula for that length, the seed's constant precomputed) and
// tests or sets its one round with two YMM registers, a shorter
// instruction stream than the same probe in Go, which other keys, larger
// k and the other builds run. The Hash forms (which
// inline into their caller), call asm.BlockedTestHash / BlockedAddHash.
// TestAndAdd writes only for a key that tests absent.
// AddUint64 / TestUint64 answer as the 8 little-endian bytes of the key
// would (engine.HashUint64Seed), AddString / TestString as its bytes,
// without copying them. The batch forms (AddHashes, TestHashes, the
// Uint64s and Keys forms) run asm's AVX-512 or AVX2 kernels, chosen once
// per call. For k <= 8 (fewer than 2^32 lines) whole groups of eight keys
// go through the grouped kernels, which compute eight keys' lines and
// per-word bit positions in vector registers (the Uint64s forms hash them
// there too; with AVX-512 VBMI one VPMULTISHIFTQB cuts the positions of
// eight keys) twelve groups before probing them, prefetching the lines of
// the group to come one per key (into L1 or L2, as suits the core); the
// last keys of a batch, and larger k, go key by key, prefetching the line
// of the key 64 places ahead; both prefetch over a filter of 1 MiB or
// more. The Keys forms hash 256 keys at a time on the stack, each chunk
// together with the 96 keys after it, so the prepare and prefetch windows
// run on from one chunk to the next. Without assembly (purego, arm64)
// they run the single-key code key after key, and on every kernel they
// answer exactly what the single-key forms answer.
//
// Contract. Filter, and where they apply Narrow, Scalable and Window,
// hold the family contract of engine's package doc: New/NewMK,
// Decode/Read (DecodeNarrow, ReadScalable, ... for the derived types), the
// binary, stream and text codecs (MarshalText is the binary form in
// base64, so encoding/json and encoding/gob carry a filter inside a
// struct), Clone, M, K, SizeBytes, EstimatedCount, ModelFPR, TestAndAdd,
// a one-line String, and every key form. A zero value holds no key: its
// reads answer absent and its writes panic with a message naming the
// constructor; encoding one is an error wrapping engine.ErrParam. A batch
// out slice shorter than the keys panics with one readable message.
//
// Growing and aging: Scalable (the scalable Bloom filter of Almeida et
// al., stages of blocked filters whose compound FPR stays below p for any
// number of keys) and Window (a sliding window of G blocked generations
// that forgets keys older than G-1 rotations) are built from blocked
// filters (Scalable a list of Filters, Window one array of G generations
// interleaved line by line); their batch tests hash once and test a key's
// line in every stage or generation with one kernel. Their types' docs
// give the layout, the FPR model and the guarantees.
//
// Concurrency, engine's one rule: plain reads (Test and its forms) are
// safe from many goroutines at once; a writer needs exclusive use, or the
// *Concurrent forms of Filter and Window (AddConcurrent,
// AddHashConcurrent, AddHashesConcurrent, AddUint64sConcurrent, beside
// TestConcurrent and TestHashConcurrent readers, and the concurrent dedup
// TestAndAddConcurrent and its Hash, Uint64 and String forms), which set
// bits with atomic ORs; Window's also rotate beside them.
package blocked
