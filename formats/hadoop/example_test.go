package hadoop_test

import (
	"bytes"
	"fmt"
	"os"

	"github.com/filterengine/filterengine/formats/hadoop"
)

// Read a filter Hadoop wrote (BloomFilter.write into a file) and test keys.
func Example() {
	file, err := os.Open("testdata/bloom/bloom_v1000_k4_murmur_n1.bin")
	if err != nil {
		panic(err)
	}
	defer file.Close()
	f, err := hadoop.ReadBloomFilter(file)
	if err != nil {
		panic(err)
	}
	fmt.Println(f.VectorSize(), f.NbHash(), f.HashType())
	fmt.Println(f.Test([]byte{0xff}), f.Test([]byte{0xf2}))
	// Output:
	// 1000 4 murmur
	// true false
}

// Build a filter for a Hadoop job: the bytes are what Hadoop's
// BloomFilter.write writes, so BloomFilter.readFields reads them.
func ExampleBloomFilter_WriteTo() {
	f, err := hadoop.NewBloomFilter(1000, 4, hadoop.Murmur)
	if err != nil {
		panic(err)
	}
	if err := f.Add([]byte{0xff}); err != nil {
		panic(err)
	}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		panic(err)
	}
	hadoopWrote, _ := os.ReadFile("testdata/bloom/bloom_v1000_k4_murmur_n1.bin")
	fmt.Printf("% x\n", buf.Bytes()[:13])
	fmt.Println(buf.Len(), bytes.Equal(buf.Bytes(), hadoopWrote))
	// Output:
	// ff ff ff ff 00 00 00 04 01 00 00 03 e8
	// 138 true
}

// Hadoop's positions come from a chain of hashes, not double hashing.
func ExamplePositions() {
	p, err := hadoop.Positions([]byte{0xff}, 1000, 4, hadoop.Murmur)
	fmt.Println(p, err)
	_, err = hadoop.Positions(nil, 1000, 4, hadoop.Murmur)
	fmt.Println(err)
	// Output:
	// [783 267 198 164] <nil>
	// filterengine: invalid parameter: hadoop: empty key (Hadoop's HashFunction rejects a key of length 0)
}

// Counters stick at 15: deleting a key whose counters saturated leaves it.
func ExampleCountingBloomFilter() {
	f, _ := hadoop.NewCountingBloomFilter(1000, 4, hadoop.Jenkins)
	key := []byte("row-17")
	for range 20 {
		_ = f.Add(key)
	}
	fmt.Println(f.ApproximateCount(key))
	_ = f.Delete(key)
	fmt.Println(f.ApproximateCount(key), f.Test(key))
	fmt.Println(f.Delete([]byte("absent")))
	// Output:
	// 15
	// 15 true
	// filterengine: invalid parameter: hadoop: CountingBloomFilter.Delete: key is not a member
}

// Clear the bit that removes the most false-positive weight.
func ExampleRetouchedBloomFilter_SelectiveClearing() {
	f, _ := hadoop.NewRetouchedBloomFilter(64, 3, hadoop.Murmur)
	for _, k := range []string{"a", "b", "c", "d"} {
		_ = f.Add([]byte(k))
	}
	// Find a key that tests present without being added.
	var fp []byte
	for i := 0; fp == nil; i++ {
		if k := fmt.Appendf(nil, "probe-%d", i); f.Test(k) {
			fp = k
		}
	}
	_ = f.AddFalsePositive(fp, 1)
	bit, err := f.SelectiveClearing(fp, hadoop.RemoveMaximumFP)
	fmt.Println(bit >= 0, err, f.Test(fp))
	// Output:
	// true <nil> false
}
