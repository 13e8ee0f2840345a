package clickhouse

import "github.com/go-faster/city"

// k2 is CityHash's third multiplier; CityHash64WithSeed subtracts it from
// the unseeded hash before mixing in the seed (cityhash102's city.cc).
const k2 = 0x9ae16a3b2f90404f

// CityHash64 is CityHash v1.0.2's CityHash64, the hash ClickHouse's SQL
// function cityHash64 returns for a single String argument and the hash the
// bloom_filter index takes of a String value.
func CityHash64(data []byte) uint64 { return city.CH64(data) }

// CityHash64WithSeed is CityHash v1.0.2's CityHash64WithSeed:
// Hash128to64(CityHash64(data) - k2, seed). It is the hash tokenbf_v1 and
// ngrambf_v1 take of every token, twice, with two seeds. It differs from the
// seeded hash of CityHash 1.1 (and of github.com/go-faster/city's
// Hash64WithSeed) for most inputs.
func CityHash64WithSeed(data []byte, seed uint64) uint64 {
	return Hash128to64(city.CH64(data)-k2, seed)
}

// CityHash128 is CityHash v1.0.2's CityHash128, the checksum in front of
// every compressed block ClickHouse writes. lo is the first 8 bytes of the
// checksum as stored (little-endian), hi the next 8.
func CityHash128(data []byte) (lo, hi uint64) {
	h := city.CH128(data)
	return h.Low, h.High
}

// Hash128to64 is CityHash's Hash128to64 of the 128-bit value (lo, hi): the
// mixer of CityHash64WithSeed and of BloomFilter.AddHashWithSeed.
func Hash128to64(lo, hi uint64) uint64 {
	const mul = 0x9ddfea08eb382d69
	a := (lo ^ hi) * mul
	a ^= a >> 47
	b := (hi ^ a) * mul
	b ^= b >> 47
	return b * mul
}

// IntHash64 is the 64-bit integer mixer ClickHouse's bloom_filter index
// applies to numbers (intHash64 in Common/HashTable/Hash.h, the finalizer of
// MurmurHash3). The SQL function intHash64(x) is IntHash64(x ^
// 0x4CF2D2BAAE6DA887), not this function.
func IntHash64(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// SQLIntHash64 is what ClickHouse's SQL function intHash64(x) returns.
func SQLIntHash64(x uint64) uint64 { return IntHash64(x ^ 0x4CF2D2BAAE6DA887) }
