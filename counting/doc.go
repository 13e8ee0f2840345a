// Package counting is a counting Bloom filter (Fan et al. 2000; seed 000):
// small counters instead of bits, so keys can be removed, with atomic
// counters so one filter serves many goroutines without a lock.
//
// Layout: 4-bit counters (8-bit with WithCounterBits(8)) packed in 64-byte
// lines, 128 (or 64) per line. A key's hash picks one line by
// engine.Reduce and k cells of that line (asm.CountingProbes), so every
// operation touches one cache line. Add and Remove update all of a key's
// counters that share a 64-bit word with one compare-and-swap, so a key
// costs one CAS per touched word (about 5 for k = 6-8), never a mutex.
// Counters saturate and stay saturated: no Remove decrements a counter at
// its maximum, so overflow never causes a false negative; Saturated counts
// them. Remove of a key that tests absent returns false and changes
// nothing; removing a key that was never added but tests present (a false
// positive) decrements other keys' counters and can make them test absent.
//
// False-positive model (ModelFPR, checked by the tests on 1e6 absent keys):
// a line holds Binomial(n, 1/lines) keys; given j keys in its line a
// non-member passes with probability E[(S/b)^k], S the number of nonzero
// cells after j*k uniform choices among the b cells of a line, computed
// exactly from the occupancy distribution. New sizes the fewest lines, then
// the fewest probes, that reach p. Measured with 1e5 keys and 1e6 absent
// probes: p = 1% takes 10.9 counters (43 bits) per key with k = 6 and
// measures 0.990%; p = 0.1% takes 19.0 counters per key, k = 8, measures
// 0.105%. The one-line layout costs memory against a classic filter (9.6
// counters per key at 1%, 14.4 at 0.1%) and more at small p (77 counters
// per key at 1e-6 against 28.8): the price of one cache line per key.
//
// ToBloom returns the membership-only twin (type Bloom): one bit per
// counter, same layout, a quarter of the memory, answering every key
// exactly as the counting filter did. It is its own type because neither
// classic (probes over the whole array) nor blocked (512-bit lines) has
// 128-cell lines.
//
// Speed (AMD EPYC Zen 3 VM, 2 shared cores, p = 1%, 8-byte keys; the
// machine was loaded by other jobs, so ratios from one run are what
// carry): beside tylertreat/BoomFilters' CountingBloomFilter in one bench
// run (bench module, experiment c), Add 99 against 556 ns/key and Test 21
// against 193 at 1e6 keys (5.6x, 9.1x), 128 against 1124 and 24 against
// 495 at 1e7 (8.8x, 20.6x). TestHashes runs a branch-free AVX2 kernel with
// prefetch: 14.8 ns/key against 95 for the generic loop at 1e6, 30 against
// 122 at 1e7. An Add costs about one CAS per touched word (~10 ns each
// here), so it is CAS-bound in cache; two goroutines add 1.68x (1e6) and
// 1.31x (1e7) as fast as one, and remove+re-add pairs scale 1.81x-1.93x.
package counting
