// Package spatial is the spatial Bloom filter (SBF) of Palmieri, Calderoni
// and Maio (Inscrypt 2014; Computer Communications 2015): one array that
// maps keys to one of up to 65535 disjoint sets ("areas", labels 1..s),
// with the statistics of libSBF and the probabilistic model of Calderoni,
// Palmieri, Maio, "Probabilistic properties of the spatial Bloom filters
// and their relevance to cryptographic protocols" (IEEE TIFS 2018).
//
// Layout: m cells of 8 bits (up to 255 areas) or 16 bits (up to 65535),
// little-endian, in 64-byte aligned engine storage (huge pages when
// large) with 4 bytes of padding for the 4-byte gathers. A key's k cells
// come from its one 64-bit XXH3 hash by double hashing, probe i being
// engine.Reduce(h + i*rotl(h, 32), m). Insert(key, a) raises each cell to
// max(cell, a) by compare-and-swap on the 32-bit word holding it: the
// papers' filter (built in ascending area order) in any order, and safe
// for concurrent inserts and checks. Check returns the minimum of the k
// cells: 0 means in no area (never wrong), a member of area a never
// checks below a, and checks above a only if all its cells were raised by
// higher areas (the inter-set error).
//
// Model, with z(N) = (1 - 1/m)^(kN) and N_{>=i} the keys of areas >= i:
// filter FPR (1 - z(N_{>=1}))^k, FPR of area i
// (1 - z(N_{>=i}))^k - (1 - z(N_{>i}))^k, inter-set error of area i
// (1 - z(N_{>i}))^k. Stats gives every libSBF figure a priori and from the
// cells. Measured (TestAreaModel: 10 areas of 2e4 keys, m = 1,924,500
// cells, k = 7, 1e6 absent keys): overall FPR 0.984% (model 0.985%),
// area 1 0.397% (0.395%), area 5 0.0443% (0.0447%); members of area 1
// reported higher 0.535% (model 0.591%), of area 5 0.010% (0.025%); all
// inside the 99.9% binomial bounds.
//
// Batch checks (CheckHashes, CheckKeys, CheckUint64s) run the AVX2 or
// AVX-512 gather-and-minimum kernel of asm.SpatialCheckHashes. Measured on
// an AMD EPYC Zen 3 (2 shared cores), 10 areas, p = 1%, k = 7, queries
// half members, medians of 5 in one run (BenchmarkCheck): scalar Check
// against a standard Bloom Test with the same m bits and k is 38 vs 29
// ns/key at n = 1e4 (1.3x, in L2), 63 vs 38 at 1e5 (1.7x) and 266 vs 97 at
// 1e6 (2.7x: 9.6 MB of cells against 1.2 MB of bits, so more probes miss
// the cache). At 1e6 the batch is what closes the gap: CheckHashes 77
// ns/key on AVX2 against 155 generic and 314 scalar Check (Bloom Test 121
// in that run); CheckUint64s 59 on AVX2. Insert costs 451 ns/key at 1e6
// (one CAS per raised cell plus the counters).
package spatial
