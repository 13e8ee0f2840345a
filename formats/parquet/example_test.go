package parquet_test

import (
	"bytes"
	"fmt"

	"github.com/filterengine/filterengine/formats/parquet"
)

// A filter for a column chunk of 1000 distinct values at 1%, written as a
// Parquet file stores it at bloom_filter_offset and read back.
func Example() {
	f, _ := parquet.New(parquet.OptimalNumBytes(1000, 0.01))
	f.AddString("hello") // a BYTE_ARRAY value
	f.AddUint64(42)      // an INT64 value
	var file bytes.Buffer
	n, _ := f.WriteTo(&file) // header, then the bitset
	g, _ := parquet.Read(&file)
	fmt.Println(n, g.NumBytes(), g.TestString("hello"), g.TestUint64(42), g.TestString("absent"))
	// Output: 2064 2048 true true false
}

// Values of a column, added and tested in batch.
func ExampleFilter_AddUint64s() {
	f, _ := parquet.New(1024)
	f.AddUint64s([]uint64{1, 2, 3})
	out := make([]bool, 4)
	hits := f.TestUint64s([]uint64{1, 2, 3, 4}, out)
	fmt.Println(hits, out)
	// Output: 3 [true true true false]
}

// The bytes after the header alone: a reader that found the bitset
// itself.
func ExampleFromBitset() {
	f, _ := parquet.New(32)
	f.AddString("x")
	g, _ := parquet.FromBitset(f.Bitset())
	fmt.Println(g.TestString("x"), g.Equal(f))
	// Output: true true
}
