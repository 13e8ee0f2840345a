// Package counting is a counting Bloom filter (Fan et al. 2000; seed 000):
// small counters instead of bits, so keys can be removed, with atomic
// counters so one filter serves many goroutines without a lock.
//
// Layout: the counting twin of the blocked family. A line holds 512
// counters, one per bit of a blocked line: 4-bit counters (256 bytes, four
// cache lines) or 8-bit with WithCounterBits(8) (512 bytes). A key's line
// is asm.BlockedLine(h, lines) and its counters are the set bits of
// asm.BlockedMask(h, k): bit b of mask word w is counter w*64+b. The 64
// counters of mask word w form one chunk (32 bytes, or one 64-byte cache
// line for 8-bit), so for k <= 8 a key has one counter per chunk
// (asm/counting.go gives the order inside a chunk). The nonzero counters
// are therefore exactly the bits of the blocked filter of the same lines,
// k and seed holding the same keys, and ToBloom returns that
// *blocked.Filter (blocked.FromWords), answering every key exactly as the
// counting filter does in an eighth (4-bit) of the memory. The price
// against a one-cache-line layout: a key's counters spread over the four
// (4-bit) or up to eight (8-bit) cache lines of its 256- or 512-byte line.
//
// Add and Remove update all of a key's counters that share a 64-bit word
// with one compare-and-swap (for k <= 8 one CAS per counter). Counters
// saturate and stay saturated: no Remove decrements a counter at its
// maximum, so overflow never causes a false negative; Saturated counts
// them. Remove of a key that tests absent returns false and changes
// nothing; removing a key that was never added but tests present (a false
// positive) decrements other keys' counters and can make them test absent.
//
// False-positive model (ModelFPR, checked by the tests on 1e6 absent
// keys): positions are blocked's, so it is blocked.FPR, the model of
// Putze, Sanders and Singler (2007): Poisson line loads with mean
// 512n/m, and a line of i keys passes a foreign key with chance
// (1 - (1-1/64)^(i*k/8))^k. New sizes exactly as blocked.New
// (blocked.BitsPerKeyAndK): p = 1% takes k = 6 and 9.97 counters per key
// (4.98 bytes per key with 4-bit counters), p = 0.1% k = 9 and 15.61
// counters (7.80 bytes). Measured with 1e5 keys and 1e6 absent probes:
// 0.986% at p = 1% (model 0.999%), 0.0967% at p = 0.1% (model 0.0999%).
//
// Memory against the previous one-cache-line layout (128 cells per
// 64-byte line, sized by its own occupancy model): 9.97 against 10.9
// counters per key at p = 1%, 15.61 against 19.0 at 0.1%.
//
// Speed, paid for the blocked twin: that layout touched one cache line
// per key, this one three or four. Measured in one session under
// flock /tmp/fe-bench.lock, the old and new test binaries alternating,
// five runs each (-bench '^Benchmark(Add|Test|Remove|TestHashes)$'
// -count 1, p = 1%, 8-byte keys), medians in ns/key, old -> new: Add
// 197 -> 235 at n = 1e6 (1.19x) and 227 -> 291 at 1e7 (1.28x); Test
// 151 -> 143 (0.95x) and 189 -> 237 (1.25x); Remove 197 -> 232 and
// 249 -> 314; TestHashes, AVX2 kernel, 17.3 -> 23.2 and 23.3 -> 41.6
// (generic 102 -> 135 and 125 -> 226). The AMD EPYC Zen 3 VM's two cores
// were shared with other jobs (the same Add measured 99 ns/key on a
// quieter day), so the ratios carry, not the absolute figures. Loading
// only the chunks a key probes (for k < 8) made the AVX2 kernel slower
// here, so the kernel loads all eight.
package counting
