package blocked_test

import (
	"encoding/binary"
	"fmt"

	"github.com/filterengine/filterengine/blocked"
)

// A table filter as Pebble v1.1 (and RocksDB's legacy Bloom filter)
// stores it: whole 64-byte lines, then k and the number of lines.
func ExampleAppendRocksDBLegacy() {
	keys := [][]byte{[]byte("apple"), []byte("banana"), []byte("cherry")}
	filter := blocked.AppendRocksDBLegacy(nil, keys, 10)
	n := len(filter) - 5
	fmt.Println(len(filter), "bytes, k =", filter[n], "lines =", binary.LittleEndian.Uint32(filter[n+1:]))
	fmt.Println(blocked.RocksDBLegacyMayMatch(filter, []byte("banana")))
	fmt.Println(blocked.RocksDBLegacyMayMatch(filter, []byte("durian")))
	// Output:
	// 69 bytes, k = 6 lines = 1
	// true
	// false
}
