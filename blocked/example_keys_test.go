package blocked_test

import (
	"fmt"

	"github.com/filterengine/filterengine/blocked"
)

// A deduplicating stream: TestAndAdd adds each key and says whether it
// was (probably) seen before, in one visit to the key's line.
func ExampleFilter_TestAndAdd() {
	f, err := blocked.New(1000, 0.01)
	if err != nil {
		panic(err)
	}
	for _, id := range []string{"a", "b", "a", "c", "b"} {
		fmt.Println(id, f.TestAndAdd([]byte(id)))
	}
	// Output:
	// a false
	// b false
	// a true
	// c false
	// b true
}

// The string and integer forms hash the key's bytes without copying them
// and answer what Test answers on those bytes.
func ExampleFilter_TestString() {
	f, err := blocked.New(1000, 0.01)
	if err != nil {
		panic(err)
	}
	f.AddString("user:42")
	f.AddUint64(7)
	fmt.Println(f.TestString("user:42"), f.Test([]byte("user:42")))
	fmt.Println(f.TestUint64(7), f.Test([]byte{7, 0, 0, 0, 0, 0, 0, 0}))
	// Output:
	// true true
	// true true
}
