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
// exactly as the counting filter did.
package counting
