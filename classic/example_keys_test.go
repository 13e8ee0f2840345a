package classic_test

import (
	"fmt"

	"github.com/filterengine/filterengine/classic"
)

// The string and integer forms hash the key's bytes without copying them
// and answer what Test answers on those bytes.
func ExampleFilter_TestString() {
	f, err := classic.New(1000, 0.01)
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
