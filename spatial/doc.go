// Package spatial is the spatial Bloom filter (SBF) of Palmieri, Calderoni
// and Maio (Inscrypt 2014; Computer Communications 2015): one array that
// maps keys to one of up to 65535 disjoint sets ("areas", labels 1..s),
// with the statistics of libSBF and the probabilistic model of Calderoni,
// Palmieri, Maio, "Probabilistic properties of the spatial bloom filters
// and their relevance to cryptographic protocols" (IEEE TIFS 2018).
//
// # Cells
//
// m cells of the narrowest width that holds every label: 4 bits up to 15
// areas (two cells a byte, the lower-numbered in the low nibble), 8 bits
// up to 255, 16 bits up to 65535, packed little-endian in 64-byte aligned
// engine storage (huge pages when large) with 4 bytes of padding for the
// 4-byte gathers. libSBF's smallest cell is a byte; the 4-bit width is a
// deliberate departure that halves the array for small area counts. The
// width changes memory and speed, never an answer.
//
// # Layouts
//
// libSBF's layout (the default): a key's k cells come from its one 64-bit
// XXH3 hash by double hashing, probe i being hashing.Reduce(h + i*rotl(h,
// 32), m), anywhere in the array. This is the layout of the papers and of
// libSBF, so its figures and statistics carry over unchanged.
//
// The line-local layout (WithLineLocal): the array is whole 64-byte lines
// (128 cells of 4 bits, 64 of 8, 32 of 16); a key's line is
// hashing.Reduce(h, lines) and its k cells in that line are drawn, with
// replacement, from the top bits of h * 0x9e3779b97f4a7c15 (see
// asm.SpatialLineProbes). A Check reads one cache line instead of k. It
// pays in memory for the same FPR, as lines fill unevenly: at p = 1%,
// 1e6 keys over 4 areas, New sizes the libSBF layout at 9.62 cells (38.5 bits) per key
// and k = 7, the line-local layout at 10.85 cells (43.4 bits) per key and
// k = 6. The default stays libSBF's layout: it is the published structure,
// its statistics mean what libSBF's mean, and it is the smaller array; the
// line-local layout is the choice for per-key Check on arrays beyond the
// cache.
//
// # Operations and contract
//
// Insert(key, a) raises each of the key's cells to max(cell, a) by
// compare-and-swap on the 32-bit word holding it: the papers' filter
// (built in ascending area order) in any order. Check returns the minimum
// of the k cells: 0 means in no area (never wrong), a member of area a
// never checks below a, and checks above a only if all its cells were
// raised by higher areas (the inter-set error). InsertUint64/CheckUint64
// answer as the key's 8 little-endian bytes would, InsertString/CheckString
// as the string's bytes, without copying them; the batch forms
// (CheckHashes, CheckKeys, CheckUint64s, InsertHashes, InsertKeys,
// InsertUint64s) answer exactly as the single-key forms.
//
// Beside Insert and Check, the filter follows the family contract of
// engine's package doc where it applies: Decode, Read, Open, View and the
// Marshal/Unmarshal/WriteTo/ReadFrom/MarshalText/UnmarshalText methods,
// Clone, M (cells), K, SizeBytes, ModelFPR, Union, and a one-line String
// (the statistics table is Stats().WriteSummary's). The zero Filter has no cells:
// its accessors report zeros, Close does nothing and every other method
// panics with a message naming New; a batch out slice shorter than its
// keys panics with internal/batch's one message.
//
// Concurrency: Insert (every form), Check (every form), Clone and Stats
// are safe from many goroutines at once, cells being read with atomic
// loads of their aligned word and raised by CAS. MarshalBinary and
// WriteTo copy the cells as bytes and need no concurrent Insert; Union
// must not see its argument change; UnmarshalBinary, ReadFrom and Close
// need exclusive use.
//
// # Model
//
// libSBF's layout, with z(N) = (1 - 1/m)^(kN) and N_{>=i} the keys of
// areas >= i: filter FPR (1 - z(N_{>=1}))^k, FPR of area i
// (1 - z(N_{>=i}))^k - (1 - z(N_{>i}))^k, inter-set error of area i
// (1 - z(N_{>i}))^k. The line-local layout replaces z(N) by zero(N) =
// (1 - (1 - y)/lines)^N, y = (1 - 1/c)^k, and (1 - z(N))^k by full(N) =
// E[(X_J/c)^k], J ~ Binomial(N, 1/lines) the keys in a line and X_j the
// cells j keys set among the line's c (the occupancy distribution); the
// same formulas then give every area figure (see ModelFPR). Stats gives
// every libSBF figure a priori and from the cells; in the line-local
// layout the a-posteriori FPRs are means over lines of libSBF's formulas
// with the line's counts, and the a-posteriori inter-set error of area i
// is the mean over lines of (C_{>i}/c)^k, since libSBF's (1 -
// Emersion)^k would understate it when lines fill unevenly. Emersion,
// cells, members and collisions keep their meaning in both layouts.
//
// Measured, all inside the 99.9% binomial bounds: TestAreaModel (libSBF
// layout, 10 areas of 2e4 keys, m = 1,924,500 cells, k = 7, 1e6 absent
// keys; 4-bit and 8-bit cells answer alike): overall FPR 0.984% (model
// 0.985%), area 1 0.397% (0.395%), area 5 0.0443% (0.0447%); members of
// area 1 reported higher 0.535% (model 0.591%), of area 5 0.010%
// (0.025%). TestAreaModelLineLocal (line-local, sized for 1%): 10 areas of
// 2e4 keys in 4-bit cells, m = 2,169,472 (43.4 bits per key), k = 6,
// FPR 1.004% (model 1.000%); 20 areas of 1e4 keys in 8-bit cells, m =
// 2,427,776 (97.1 bits per key), k = 5, FPR 1.020% (model 1.000%).
//
// # Statistics counters
//
// Each insert adds its member, collision and self-collision counts to one
// packed 64-bit counter of its area with a single atomic add; the counts
// move to wide counters whenever a packed field reaches 2^20. They are
// exact once inserts stop.
//
// # Kernels
//
// Single-key Check runs one probe loop per layout and cell width, chosen
// once per call, with constant shifts and no bounds checks
// (asm.SpatialCheck, asm.SpatialLineCheck). Check and CheckUint64 are one
// call, inlined into the caller, to asm.SpatialCheckKey /
// SpatialCheckUint64: on amd64 from avx2 up, for the line-local layout
// with k <= 8, a kernel hashes an 8-byte key and takes its k cells as
// vector lanes (gathered from the key's line, reduced with VPMINUD); other
// keys, libSBF's layout and the other builds run the Go loops. Batch checks on libSBF's
// layout run the AVX2 or AVX-512 gather-and-minimum kernel of
// asm.SpatialCheckHashes, the same Go loop as the single-key form
// elsewhere; on the line-local layout, one Go loop
// (asm.SpatialLineCheckHashes) serves every kernel level.
package spatial
