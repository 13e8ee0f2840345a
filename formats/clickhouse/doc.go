// Package clickhouse reads and builds the Bloom-filter skip indexes of
// ClickHouse's MergeTree tables, tokenbf_v1, ngrambf_v1 and bloom_filter,
// bit for bit as ClickHouse writes them in a part's skp_idx_<name>.idx
// files, and answers which granules a condition keeps as ClickHouse's own
// index analysis does. It is a Go module of its own so that its
// dependencies (go-faster/city, pierrec/lz4, klauspost/compress) stay out of
// the filterengine module.
//
// # Layout
//
//   - hashes: CityHash64, CityHash64WithSeed, CityHash128 (CityHash v1.0.2,
//     which ClickHouse keeps as CityHash_v1_0_2 and which differs from
//     CityHash 1.1), Hash128to64, IntHash64 (the index's integer mixer) and
//     SQLIntHash64 (what SQL intHash64 returns);
//   - BloomFilter: ClickHouse's filter (Interpreters/BloomFilter.cpp);
//   - Index: a parsed TYPE clause (ParseIndex) and its granules: NewGranule,
//     Add*, MarshalBinary; ReadGranules and ReadGranulesFile for .idx files;
//   - Probe, MayContain*, Select and SelectAny: the index analysis.
//
// # Formats
//
// tokenbf_v1(size_bytes, hashes, seed) adds every token of every value: a
// token is a maximal run of bytes that are not separators, a separator
// being an ASCII byte other than [0-9A-Za-z] (bytes >= 0x80 are token
// bytes). ngrambf_v1(n, size_bytes, hashes, seed) adds every run of n code
// points, advancing one code point at a time, a code point's length read
// from its first byte as ClickHouse reads it (UTF8::seqLength), clamped at
// the end of the value. Each token sets hashes bits of a filter of
// size_bytes bytes: bit (h1 + i·h2 + i²) mod 8·size_bytes for i < hashes,
// h1 = CityHash64WithSeed(token, seed), h2 = CityHash64WithSeed(token,
// 845897321·seed + 217728422). A text index granule is each column's
// filter, size_bytes each, nothing else.
//
// bloom_filter(fpr) (fpr 0.025 by default) takes (bits, k) =
// BestPractices(fpr) and one 64-bit hash per value: CityHash64 of a string,
// IntHash64 of a number of up to 8 bytes zero-extended (Float32 widened to
// Float64, floats by their bits), IntHash64(lo ^ hi) of a 128-bit number;
// the elements of an array. A value sets bits Hash128to64(hash, seed_i) mod
// 8·size for the first k of ClickHouse's 15 seeds. A granule is
// VarUInt(total) then each column's filter of (bits·total + 7)/8 bytes,
// where total is the largest count of distinct hashes among the columns
// (older ClickHouse versions wrote the row count; both read the same way).
//
// An .idx file is the granules in order, cut into ClickHouse's compressed
// blocks: a CityHash128 checksum, a method byte (0x02 none, 0x82 LZ4, 0x90
// ZSTD), the compressed and uncompressed sizes, the payload.
//
// # False positives
//
// A text index filter of m = 8·size_bytes bits holding t distinct tokens
// answers an absent token true with probability about (1 - e^(-h·t/m))^h
// for h hashes; a condition on a value with several tokens needs them all.
// bloom_filter's bits and k follow ClickHouse's calculationBestPractices
// table (BestPractices), which targets fpr per value with bits·total bits.
//
// # Contract
//
// Every granule built with NewGranule, Add* and MarshalBinary from a
// granule's rows is byte-identical to the one ClickHouse writes for them
// (the tests compare with goldens and, through `make interop-clickhouse`,
// with a live ClickHouse). MayContain* answer false only where
// ClickHouse's index analysis skips the granule for that condition, and
// true where it keeps it, so a false is never a false negative: a granule
// holding the value always answers true. Conditions an index cannot answer
// keep every granule, as in ClickHouse: a number asked of a text index,
// hasToken asked of bloom_filter, a string with no token. Bytes that are
// not a valid .idx file give an error wrapping ErrCorrupt, never a panic,
// and never an allocation the input does not justify; ParseIndex returns
// errors wrapping ErrIndexType for the arguments ClickHouse refuses.
//
// # Concurrency
//
// Index is immutable. A Granule or a BloomFilter may be read (MayContain*,
// Contains, Select) by many goroutines at once once no goroutine adds to it;
// building one is not safe for concurrent use. A built bloom_filter granule
// sizes its filters lazily: call MarshalBinary or Total once before sharing
// it.
package clickhouse
