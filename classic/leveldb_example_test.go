package classic_test

import (
	"fmt"

	"github.com/filterengine/filterengine/classic"
)

// A LevelDB filter block entry: the bytes LevelDB, goleveldb and any
// reader of LevelDB tables expect, probed by key.
func ExampleAppendLevelDB() {
	keys := [][]byte{[]byte("apple"), []byte("banana"), []byte("cherry")}
	filter := classic.AppendLevelDB(nil, keys, 10)
	fmt.Println(len(filter), "bytes, k =", filter[len(filter)-1])
	fmt.Println(classic.LevelDBMayMatch(filter, []byte("banana")))
	fmt.Println(classic.LevelDBMayMatch(filter, []byte("durian")))
	// Output:
	// 9 bytes, k = 6
	// true
	// false
}
