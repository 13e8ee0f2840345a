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
// Speed (AMD EPYC Zen 3 VM, 2 cores, AVX2; p = 1%, k = 6, 8-byte keys;
// medians of 5 in one run). For k <= 8 a key's counters come from a
// fixed-trip loop over its k words (see probe), one CAS each. A locked
// CAS waits for every earlier load, so the batch Add and Remove request
// the line of the key 8 ahead (asm.CountingPrefetch: PREFETCHT0 on amd64,
// plain loads elsewhere) and the misses overlap. Against loading one word
// of each cache line of 16 keys first, the window measured 127 -> 94
// ns/key at 1e6 and 142 -> 119 at 1e7 (AddUint64s, medians of 3,
// alternating binaries); a burst of 16 keys' prefetches was slower at 1e7
// than the loads. Against no touch at all the loads had already taken
// AddHashes from 130 to 70 ns/key at 1e6.
// Against tylertreat/BoomFilters' CountingBloomFilter (4-bit, per key),
// bench module BenchmarkSized 'Sized/(counting|boom)/...': Add 79.6 vs
// 452.5 ns/key at n = 1e6 (5.7x) and 132 vs 1023 at 1e7 (7.8x); Test
// member 22.5 vs 160 (7.1x) and 55.6 vs 579 (10.4x), absent 21.8 vs 177
// and 47.7 vs 321. A CAS costs about 2.9 ns in L1 here, so six of them
// bound Add at ~30 ns/key in cache. Against the mask-walking version
// before (alternating test binaries, medians of 3): AddHashes 171 -> 78
// at 1e6 and 204 -> 119 at 1e7, AddHash 202 -> 123, TestHash 134 -> 77.
//
// The layout's price: a key touches three or four cache lines, not one.
// Measured when the layout changed (both versions walking the mask, old
// and new test binaries alternating, medians of 5): Add 197 -> 235
// ns/key at 1e6 and 227 -> 291 at 1e7, TestHashes on AVX2 17.3 -> 23.2
// and 23.3 -> 41.6; bought with ToBloom's exact twin and fewer counters
// per key (above).
//
// Two goroutines (BenchmarkAddHash and BenchmarkAddUint64s against
// their Parallel twins, fresh keys; six alternating runs, median of the
// per-run ratios): at n = 1e7 throughput is 2.06x one goroutine for
// single-key Add (runs 1.92-2.44x) and 2.02x for batches (1.93-2.08x).
// At 1e6 it is 1.33x (0.64-3.09x) and 1.40x (1.05-1.82x): both cores
// write the same 5 MB of lines, which one core alone keeps in its cache,
// so a line the other core wrote last must move between them first. On
// this VM that move is slow and varies with where the host places the two
// vCPUs: a ping-pong of one line took 79-119 ns a round trip in some runs
// and 459-477 ns in others. In a prototype of the batch Add (6 CAS over
// 4 lines of a 5 MB array, lines requested 8 keys ahead), PREFETCHW,
// which asks for the line already owned, took two goroutines to 27-53
// ns/key where PREFETCHT0 took 28-87 (three runs of four above 77), but
// one goroutine from 48 to 58 (medians of 4);
// Go's assembler has no PREFETCHW, so it is not used. At 1e7 misses go
// to DRAM either way and the cores overlap them.
package counting
