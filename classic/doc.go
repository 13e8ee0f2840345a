// Package classic is the standard Bloom filter (Bloom 1970): an
// array of m bits and k probes spread over the whole array. It is the
// scalar reference every other family is measured against.
//
// Layout: m bits in 64-bit words (64-byte aligned, huge pages when large).
// A key's hash h gives the probes by double hashing with a quadratic term
// (in the spirit of Dillinger & Manolios's enhanced double hashing) in
// 64-bit arithmetic: a = h, b = rotl(h, 32)·φ | 1, probe i is Reduce(a, m),
// then a += b, b += φ. Reduce is a multiply-high (of the top 32 bits of a
// when m <= 2^32, of all 64 above), so there is no division on the hot
// path and m above 2^32 works. The saved form is the engine envelope with
// parameters (m, k) and the words little-endian.
//
// False-positive rate: after n distinct keys a non-member passes with
// probability (1 - (1 - 1/m)^(kn))^k (engine.FPR, ModelFPR). New sizes
// m = -n ln p / (ln 2)^2 and k = round((m/n) ln 2): 9.59 bits per key and
// k = 7 at p = 1%, measured 1.00% on 1e6 absent keys (TestFPR);
// 14.38 bits per key and k = 10 at p = 0.1%.
//
// The contract: Filter holds the family contract written in engine's
// package doc (New/NewMK, Decode/Read, the binary, stream and text
// codecs, Clone, M, K, SizeBytes, EstimatedCount, ModelFPR, TestAndAdd,
// String, and every key form single and batch, which answer alike);
// Open, View and WriteFile work on saved files in place.
//
// Concurrency: plain reads (Test and its forms) are safe from many
// goroutines at once. A writer (Add and its forms, TestAndAdd, Union,
// Reset, UnmarshalBinary) needs exclusive use, or the *Concurrent forms
// (AddConcurrent, AddHashConcurrent, AddHashesConcurrent,
// AddUint64sConcurrent, TestConcurrent, TestHashConcurrent and the
// concurrent dedup TestAndAddConcurrent with its Hash, Uint64 and String
// forms: atomic ORs and loads, lock-free), which run together; beside them, reads must be
// TestConcurrent or TestHashConcurrent (a plain Test's loads are not
// atomic).
//
// Misuse: a zero Filter panics, in every method that touches bits, with
// a message naming classic.New; a batch out slice shorter than its keys
// panics with one readable message; bad parameters are errors wrapping
// engine.ErrParam, bad bytes errors wrapping engine.ErrFormat.
//
// The single-key probe (Add, Test, TestAndAdd and their Hash forms) is a
// plain loop of few live values with the reduce chosen once per key and
// no bounds check; Test stops at the first clear bit. The batch methods
// run the same probe key after key, so they answer exactly what the
// single-key forms answer. AddUint64 / TestUint64 answer as the 8
// little-endian bytes of the key would, AddString / TestString as its
// bytes, without copying them.
//
// Two types build on Filter (after Hadoop's org.apache.hadoop.util.bloom) and
// follow the contract where it applies (their codecs are DecodeDynamic,
// ReadDynamic, DecodeRetouched and ReadRetouched; their zero values test
// every key absent and panic, naming their constructor, on a write). Dynamic (NewDynamic) is Hadoop's DynamicBloomFilter: rows of
// classic filters for nr keys each, a new row when the active one holds
// nr keys, Test asks every row; its FPR model is 1 - (1 - p')^rows.
// Retouched (NewRetouched) is the retouched Bloom filter of Donnet,
// Baynat & Friedman (CoNEXT 2006): SelectiveClearing removes a known
// false positive by resetting one of its bits, and is the one operation
// in this module that can make added keys test absent; FalseNegatives
// counts them exactly.
package classic
