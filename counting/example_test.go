package counting_test

import (
	"fmt"

	"github.com/filterengine/filterengine/counting"
)

// A counting filter forgets a key on Remove: a session store adds a
// session when it opens and removes it when it closes.
func Example_remove() {
	f, err := counting.New(10_000, 0.01)
	if err != nil {
		panic(err)
	}
	f.AddString("session-1")
	f.AddString("session-2")
	fmt.Println(f.TestString("session-1"), f.TestString("session-2"))

	fmt.Println(f.RemoveString("session-1")) // true: it was there
	fmt.Println(f.TestString("session-1"), f.TestString("session-2"))
	fmt.Println(f.RemoveString("session-3")) // false: never added, nothing changes
	// Output:
	// true true
	// true
	// false true
	// false
}

// TestAndAdd answers whether a key was seen before and records it in one
// call: the dedup step of an event stream.
func ExampleFilter_TestAndAdd() {
	f, err := counting.New(10_000, 0.01)
	if err != nil {
		panic(err)
	}
	for _, event := range []string{"a", "b", "a", "c", "b"} {
		if f.TestAndAdd([]byte(event)) {
			fmt.Println("duplicate", event)
		}
	}
	// Output:
	// duplicate a
	// duplicate b
}
