// Package spatial is the spatial Bloom filter (SBF) of Palmieri, Calderoni
// and Maio (Inscrypt 2014; Computer Communications 2015): one array that
// maps keys to one of up to 65535 disjoint sets ("areas", labels 1..s),
// with the statistics of libSBF and the probabilistic model of Calderoni,
// Palmieri, Maio, "Probabilistic properties of the spatial bloom filters
// and their relevance to cryptographic protocols" (IEEE TIFS 2018).
//
// Layout: m cells of the narrowest width that holds every label: 4 bits
// up to 15 areas (two cells a byte, the lower-numbered in the low
// nibble), 8 bits up to 255, 16 bits up to 65535, packed little-endian in
// 64-byte aligned engine storage (huge pages when large) with 4 bytes of
// padding for the 4-byte gathers. libSBF's smallest cell is a byte; the
// 4-bit width is a deliberate departure that halves the array, and so the
// cache misses, for small area counts. A key's k cells come from its one
// 64-bit XXH3 hash by double hashing, probe i being
// engine.Reduce(h + i*rotl(h, 32), m). Insert(key, a) raises each cell to
// max(cell, a) by compare-and-swap on the 32-bit word holding it: the
// papers' filter (built in ascending area order) in any order, and safe
// for concurrent inserts and checks, neighbouring cells of one word
// included. Check returns the minimum of the k cells: 0 means in no area
// (never wrong), a member of area a never checks below a, and checks
// above a only if all its cells were raised by higher areas (the
// inter-set error). The width changes memory and speed, never an answer.
//
// Model, with z(N) = (1 - 1/m)^(kN) and N_{>=i} the keys of areas >= i:
// filter FPR (1 - z(N_{>=1}))^k, FPR of area i
// (1 - z(N_{>=i}))^k - (1 - z(N_{>i}))^k, inter-set error of area i
// (1 - z(N_{>i}))^k. Stats gives every libSBF figure a priori and from the
// cells. Measured (TestAreaModel: 10 areas of 2e4 keys, m = 1,924,500
// cells, k = 7, 1e6 absent keys; 4-bit and 8-bit cells answer alike):
// overall FPR 0.984% (model 0.985%), area 1 0.397% (0.395%), area 5
// 0.0443% (0.0447%); members of area 1 reported higher 0.535% (model
// 0.591%), of area 5 0.010% (0.025%); all inside the 99.9% binomial
// bounds.
//
// Batch checks (CheckHashes, CheckKeys, CheckUint64s) run the AVX2 or
// AVX-512 gather-and-minimum kernel of asm.SpatialCheckHashes. Measured on
// an AMD EPYC Zen 3 (2 shared cores), p = 1%, k = 7, batch CheckUint64s
// against classic's batch TestUint64s at n = 1e6, medians of 5 in one run
// (bench module, BenchmarkSized): on AVX2, 4-bit cells (4.8 MB) 33.6
// ns/key for members and 23.5 for absent keys against classic's 27.4 and
// 28.4 (1.23x and 0.83x); before 4-bit cells, the 8-bit array (9.6 MB)
// took 81.6 and 55.4 against 34.5 and 29.3 (2.4x and 1.9x). Above 15
// areas the cells are 8 bits and the gap returns: in another run, 100
// areas took 113 and 77 ns/key, 1000 areas (16-bit, 19 MB) 114 and 86,
// 4-bit 33 and 26, classic 24 and 27. The generic path is
// latency-bound: 187 and 95 ns/key for 4-bit cells against classic's 27
// and 28. Scalar Check (BenchmarkCheck, 10 areas, half members, hashing
// included) against a standard Bloom Test of the same m and k: 33 vs 29
// ns/key at n = 1e4 (1.15x), 51 vs 33 at 1e5 (1.5x), 324 vs 141 at 1e6
// (2.3x); CheckHashes at 1e6 20 ns/key on AVX2, 220 generic. In make
// bench (at 589d303) the batch Check took 50.8 and 29.1 ns/key against
// classic's 34.6 and 28.6 (1.47x, 1.02x); an earlier run of the same
// code 13.4 and 13.2 against 32.5 and 28.4: 4.8 MB sits at the edge of
// the cache this VM gets. Insert costs 317 ns/key at 1e6 one key at a
// time (one CAS per raised cell plus the counters; 451 with 8-bit cells
// in an earlier run); filling a fresh 1e6-key filter through
// InsertUint64s, which loads each group of 16 keys' cells before the
// CASes and counts once per batch, about 262.
package spatial
