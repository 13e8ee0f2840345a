package clickhouse_test

import (
	"fmt"

	"github.com/filterengine/filterengine/formats/clickhouse"
)

// Read a part's tokenbf_v1 index and ask which granules may hold a token,
// as hasToken(s, 'token') would.
func Example() {
	ix, err := clickhouse.ParseIndex("tokenbf_v1(256, 3, 0)")
	if err != nil {
		panic(err)
	}
	// One index column, s; testdata/lz4 holds a part chdb wrote.
	granules, err := ix.ReadGranulesFile("testdata/lz4/skp_idx_tok.idx", 1)
	if err != nil {
		panic(err)
	}
	keep := make([]bool, len(granules))
	n := clickhouse.Select(granules, ix.ProbeToken(0, []byte("no-such-token-here")), keep)
	fmt.Println(len(granules), "granules,", n, "may hold the token")
	// Output: 6 granules, 0 may hold the token
}

// Build the granule ClickHouse writes for three rows of a String column.
func ExampleIndex_NewGranule() {
	ix, _ := clickhouse.ParseIndex("tokenbf_v1(32, 2, 0)")
	g := ix.NewGranule(1)
	for _, s := range []string{"GET /index.html 200", "POST /login 302", ""} {
		g.AddString(0, []byte(s))
	}
	b, _ := g.MarshalBinary()
	fmt.Println(len(b), "bytes")
	fmt.Println(g.MayContainToken(0, []byte("login")), g.MayContainString(0, []byte("GET /index.html 200")))
	// Output:
	// 32 bytes
	// true true
}

// bloom_filter sizes its filters from the granule's distinct values.
func ExampleIndex_NewGranule_bloomFilter() {
	ix, _ := clickhouse.ParseIndex("bloom_filter(0.01)")
	fmt.Println(ix.BitsPerValue(), "bits and", ix.Hashes(), "hashes per value")
	g := ix.NewGranule(1)
	for _, v := range []uint64{7, 7, 42, 1 << 40} {
		g.AddUint64(0, v)
	}
	b, _ := g.MarshalBinary()
	fmt.Printf("total %d, %d bytes\n", g.Total(), len(b))
	fmt.Println(g.MayContainUint64(0, 42))
	// Output:
	// 10 bits and 5 hashes per value
	// total 3, 5 bytes
	// true
}

// The filter alone, outside an index.
func ExampleBloomFilter() {
	f, _ := clickhouse.NewBloomFilter(64, 3, 0)
	f.Add([]byte("clickhouse"))
	fmt.Println(f.Contains([]byte("clickhouse")), len(f.Bytes()))
	// Output: true 64
}

func ExampleParseIndex() {
	for _, t := range []string{"ngrambf_v1(3, 512, 2, 0)", "bloom_filter", "tokenbf_v1(0, 3, 0)", "bloom_filter(1.5)"} {
		ix, err := clickhouse.ParseIndex(t)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(ix)
	}
	// Output:
	// ngrambf_v1(3, 512, 2, 0)
	// bloom_filter(0.025)
	// clickhouse: bad index type "tokenbf_v1(0, 3, 0)": the size of bloom filter cannot be zero
	// clickhouse: bad index type "bloom_filter(1.5)": the BloomFilter false positive must be a double number between 0 and 1
}

// Hashes equal to ClickHouse's SQL functions.
func ExampleCityHash64() {
	fmt.Println(clickhouse.CityHash64([]byte("abc")), clickhouse.SQLIntHash64(5))
	// Output: 4220206313085259313 15228578409069794350
}
