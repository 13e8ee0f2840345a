// Package counting is a counting Bloom filter (Fan, Cao, Almeida and Broder,
// "Summary Cache", 2000; Hadoop's CountingBloomFilter):
// small counters instead of bits, so keys can be removed, with lock-free
// atomic forms of every write so one filter can serve many writing
// goroutines without a lock.
//
// # Layout
//
// A key's counters sit in one 64-byte cache line. A line is 8 words:
// 128 4-bit counters (the default) or 64 8-bit counters with
// WithCounterBits(8). A key with hash h = engine.HashSeed(key, seed) uses
// line hashing.Reduce(h, lines) and k counters there, drawn as
// asm.NarrowPositions says: g = h*0x9e3779b97f4a7c15, probe j is the top
// 7 bits (4-bit) or 6 bits (8-bit) of g << 7j (6j), a fresh
// multiplication of g every 9 (10) probes. 4-bit counter q is bits
// 4(q&15).. of word q>>4, 8-bit counter q is byte q of the line. Two
// probes of a key may pick the same counter; it is then incremented (and
// removed) twice. So the nonzero counters are exactly the set bits of a
// blocked.Narrow filter of 128-bit (or 64-bit) blocks with the same
// lines, k and seed, and ToBloom returns that filter, answering every key
// exactly as this one does in a quarter (4-bit) or an eighth (8-bit) of
// the memory.
//
// # False-positive model
//
// ModelFPR is blocked.NarrowFPR of the twin: line loads are Poisson with
// mean (counters per line)*n/counters (Putze, Sanders and Singler 2007),
// and a line holding i keys passes a foreign key with the exact chance
// that k uniform probes all land on counters hit by the i*k probes of its
// keys, averaged over the distribution of how many counters those hit
// (the mean alone is several percent low at 128 counters a line). New
// sizes with blocked.NarrowBitsPerKeyAndK:
//
//	counters   p      k   counters/key   bytes/key   measured FPR (1e6 absent keys)
//	4-bit      1%     6   10.85           5.42        0.998%  (model 1.000%)
//	4-bit      0.1%   8   19.01           9.51        0.104%  (model 0.100%)
//	8-bit      1%     5   12.14          12.14        0.988%  (model 1.000%)
//	8-bit      0.1%   7   24.00          24.00        0.093%  (model 0.100%)
//
// (TestFPRWithinModel, 1e5 keys for 1%, 5e4 for 0.1%).
//
// # Contract
//
// The family contract of engine's package doc: New(n, p) and
// NewMK(counters, k); Decode, Read, Open, View and the
// Marshal/Unmarshal/WriteTo/ReadFrom/MarshalText/UnmarshalText methods;
// Clone, M (counters), K, SizeBytes, EstimatedCount, ModelFPR and
// TestAndAdd; Add/Test in their Hash, Uint64 (the 8 little-endian bytes)
// and String (no copy, no allocation) forms and their batch forms, which
// answer exactly as the single-key forms on every kernel. Counting adds
// Remove in every key form (Remove, RemoveHash, RemoveUint64,
// RemoveString, RemoveHashes, RemoveKeys, RemoveUint64s) and Count.
//
// Counters saturate and stay saturated: no Remove decrements a counter at
// its maximum (15 or 255), so overflow never causes a false negative;
// Saturated counts them. Remove of a key that tests absent returns false
// and changes nothing; removing a key that was never added but tests
// present (a false positive) decrements other keys' counters and can
// make them test absent: remove only keys you added.
//
// The zero Filter has no counters: its accessors report zeros, Close does
// nothing and every other method panics with a message naming New. A
// batch out slice shorter than its keys panics with internal/batch's one
// message.
//
// # Concurrency
//
// The family's one rule (engine's doc): reads are safe from many
// goroutines at once; a plain writer (Add, TestAndAdd, Remove and their
// key and batch forms) needs the filter to itself, and any number of
// goroutines may write at once through the *Concurrent forms. Those
// change each counter by a compare-and-swap, lock-free, with the same
// sticky saturation: AddConcurrent, AddHashConcurrent,
// AddHashesConcurrent, AddUint64sConcurrent, TestAndAddConcurrent,
// TestAndAddHashConcurrent, TestAndAddUint64Concurrent,
// TestAndAddStringConcurrent, RemoveConcurrent, RemoveHashConcurrent,
// RemoveHashesConcurrent and RemoveUint64sConcurrent, beside
// TestConcurrent and TestHashConcurrent, which are Test and TestHash.
// Both kinds of write leave the same counters. Reads load each word
// atomically, so a Test that races an Add of the same key may see some of
// its counters and not others. Close and the Unmarshal/ReadFrom methods
// replace the filter and need it to themselves.
//
// A plain write loads and stores its counters' line without a lock (one
// 64-byte store for a round of 4-bit counters at avx512); a locked CAS waits
// for every earlier load, so a writer that does not share the filter
// saves the k locked instructions a key and lets one key's cache miss
// overlap the next key's work. Until this version the plain writers were
// the atomic ones: code that calls Add or Remove from several goroutines
// must move to the *Concurrent forms.
//
// # Kernels
//
// Test and its Uint64, String and Hash forms are one inlined call of a
// single-key kernel of asm (asm.CountingTestKey and siblings): at the
// avx512 level, for 4-bit counters and k <= 9, it hashes an 8-byte key
// and tests the key's round of probes in the lanes of one vector, its
// line read once; every other case runs its Go twin. Add, TestAndAdd and
// Remove and their Uint64 and Hash forms are likewise one inlined call
// of an update kernel (asm.CountingAddKey and siblings), which builds the
// key's increments as one vector of nibbles, a counter's the number of
// the key's probes on it, and updates the line with byte arithmetic
// (saturating at 15, flooring at 0, skipping counters at 15) and one
// store; their Go twins walk a round of 4-bit counters with constant
// shifts, every other geometry through asm.CountingUpdate's general
// loop, as the batch updates do. The batch test runs the AVX-512 or AVX2
// kernel of asm (one vector test turns a line into the masks of its zero
// counters), requesting the line of the key dist = 8 places ahead; batch
// Add and Remove request lines at the same distance (asm.CountingPrefetch).
// Benchmarks: go test -bench PerKey ./counting and, beside
// tylertreat/BoomFilters, go test -bench CountingPerKey ./filters in the
// bench module.
package counting
