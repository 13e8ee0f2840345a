// Package shifting implements Shifting Bloom filters (Yang, Liu, Shahzad
// et al., "A Shifting Bloom Filter Framework for Set Queries", PVLDB 9(5),
// 2016): the auxiliary information of a key is encoded in the offset
// between bits it sets, so that one memory access reads a key's bit and
// its partner.
//
// # Membership (ShBF_M): Filter, New, NewMK
//
// Layout: an array of m positions plus padding (64-byte aligned words,
// huge pages when large). A key's 64-bit hash h gives, by double hashing
// with a quadratic term (a_0 = h, b_0 = rotl(h, 32), a_{j+1} = a_j + b_j,
// b_{j+1} = b_j + φ), k/2 positions p_j = Reduce(a_j, m) and the offset
// o = Reduce(a_{k/2}, w̄-1) + 1 in [1, 56] with w̄ = 57 = 64 - 7. A key sets
// bits p_j and p_j + o; a test reads both with one unaligned 8-byte load at
// byte p_j/8 shifted right by p_j mod 8 (bits p_j .. p_j+56 are always in
// it). Reduce is a multiply-high, so there is no division and m above 2^32
// works; the padding keeps the last load in bounds.
//
// False-positive rate (the paper's section 3.3), with p' = (1-1/m)^(kn)
// the fraction of zero bits after n keys:
//
//	f = (1 - p')^(k/2) · (1 - p' + p'^2/(w̄-1))^(k/2)
//
// New picks the smallest m over even k for which f <= p: at p = 1% that
// is 9.69 bits per key with k = 6, measured 0.996% on 1e6 absent keys
// (TestFPR). At the awesome-bloom-filters evaluation's ratio m/n = 10,
// k = 10 the model says 1.038% and 1e6 absent keys measure 1.021%
// (1.035% averaged over ten hash seeds); a classic Bloom filter of the
// same m, n, k has 1.019%.
//
// The second-array variant (WithSecondArray; the improvement the
// awesome-bloom-filters project proposes for ShBF_M) adds a second array
// of m bits in which each key sets one more bit. At m/n = 10, k = 10 it
// cuts the measured FPR from 1.02% to 0.089% (model 0.099%), a factor of
// 1/(1 - e^(-n/m)) ≈ 10.5 — for twice the memory. A plain ShBF_M given the
// same 2m bits (m/n = 20, k = 14 by the model) reaches about 0.007%, so the
// variant is a way to add bits to a fixed-geometry filter, not a better use
// of memory.
//
// The contract: Filter holds the family contract written in engine's
// package doc (New/NewMK, Decode/Read, the binary, stream and text codecs,
// Clone, M, K, SizeBytes, EstimatedCount, ModelFPR, TestAndAdd, String,
// and every key form single and batch, which answer alike). Association
// and Multiplicity follow it where it applies: their own operations (Add,
// Query, Count, Update) in the []byte, string, uint64 and hash forms, the
// codecs (DecodeAssociation, ReadAssociation, DecodeMultiplicity,
// ReadMultiplicity, the methods, the text form), Clone, String, M, K and
// SizeBytes.
//
// Concurrency: plain reads (Test, Query, Count and their forms) are safe
// from many goroutines at once. A writer needs exclusive use, or, on
// Filter, the *Concurrent forms (AddConcurrent, AddHashConcurrent,
// AddHashesConcurrent, AddUint64sConcurrent, TestConcurrent,
// TestHashConcurrent, and the concurrent dedup TestAndAddConcurrent with
// its Hash, Uint64 and String forms; TestAndAdd and TestAndAddHash are
// concurrent too),
// which are lock-free: each bit is set with an atomic OR (a pair's two
// bits may sit in two words) and read with atomic loads of the two
// aligned words that hold the window.
//
// Misuse: a zero value panics, in every method that touches bits, with a
// message naming its constructor; a batch out slice shorter than its keys
// panics with one readable message; bad parameters are errors wrapping
// engine.ErrParam, bad bytes errors wrapping engine.ErrFormat.
//
// # Association (ShBF_A): Association, NewAssociation
//
// Two sets S1, S2 in one array (the paper's section 4). A key sets k bits
// h_i + off with off = 0 for S1 - S2, o1 in [1, 28] for S1 ∩ S2 and
// o2 = o1 + [1, 28] for S2 - S1, so a query reads each of its k windows
// once and sees all three candidates. Query returns an Answer, the set of
// outcomes it cannot rule out: one outcome is the paper's clear answer,
// several an unclear one, none a certain "in neither". A member's true
// outcome is always in its answer. A wrong outcome survives with
// f = (1 - p')^k, so the clear-answer rate is (1 - f)^2: at p = 1%
// (m = 9.59 bits per insertion, k = 7) 96.89% of 90,000 members measured
// clear against the model's 96.89%, and 4.64% of 1e6 non-members were not
// answered "in neither" (model 1 - (1 - f)^3 = 4.62%) (TestAssociationAnswers).
// A key added to both sets separately, rather than once with InBoth, is
// answered "S1 only or S2 only or both", never clear.
//
// # Multiplicity (ShBF_x): Multiplicity, NewMultiplicity
//
// A key occurring c times (1 <= c <= 57) sets k bits h_i + c - 1 (the
// paper's section 5); a query ANDs its k windows and answers the largest c
// whose bits survive, so it never under-reports, and a larger count
// survives with f = (1 - p')^k each. With counts uniform in [1, 16] at
// p = 1%, 92.73% of 1e5 keys got their exact count (model 92.79%)
// (TestMultiplicityNeverUnder). Updates: WithCounters adds the paper's
// counting variant, an 8-bit counter behind every bit (9x the memory);
// Update(key, from, to) decrements the counters of the old count and
// increments those of the new one, each bit mirroring its counter. It
// needs the key's true current count — as the paper's variant does, the
// filter cannot learn it from its own over-reporting answer — and refuses
// a from whose counters are not all set. Saturated counters stay at 255,
// so saturation can only over-report. Without counters a key can only be
// raised (Add with a larger count).
//
// The single-key test is asm.ShiftingTestHash: one unaligned load per pair
// and no early exit, so a key's loads issue together; the generic batch
// kernel runs it key after key. ShBF_M's Test and TestUint64 are one call,
// inlined into the caller, to asm.ShiftingTestKey / ShiftingTestUint64: on
// amd64 from avx2 up a kernel hashes an 8-byte key and ANDs its k/2
// windows in registers (BMI2), for a filter without a second array; other
// keys and filters, and the other builds, run the same test in Go. AddUint64 / TestUint64 answer as the 8
// little-endian bytes of the key would, AddString / TestString as its
// bytes, without copying them.
//
// Batch tests run in the asm.ShiftingTestHashes kernels: per vector of
// hashes the multiply-high reductions (two 32x32 products when m < 2^32,
// four above), one VPGATHERQQ of unaligned words per pair and VPSRLVQ by
// p mod 8 (AVX2, 4 keys; AVX-512, 8 keys), bit-identical to the generic
// loop at every level. Timings against a standard Bloom filter of the same
// geometry are BenchmarkMembershipPaired, BenchmarkAssociationQuery and
// BenchmarkMultiplicityCount.
package shifting
