package blocked_test

import (
	"fmt"

	"github.com/filterengine/filterengine/blocked"
)

// Dedup of an unbounded stream: Scalable grows a stage at a time, so the
// false-positive rate stays below 1% however many events arrive.
func ExampleScalable_TestAndAdd() {
	seen, err := blocked.NewScalable(1000, 0.01)
	if err != nil {
		panic(err)
	}
	events := []string{"login:alice", "login:bob", "login:alice", "pay:bob", "login:bob"}
	for _, e := range events {
		if seen.TestAndAdd([]byte(e)) {
			fmt.Println("duplicate", e)
		}
	}
	for i := range 100_000 {
		seen.AddUint64(uint64(i))
	}
	fmt.Println(seen.Added(), "keys in", seen.Stages(), "stages, model FPR below 1%:", seen.ModelFPR(seen.Added()) < 0.01)
	// Output:
	// duplicate login:alice
	// duplicate login:bob
	// 100003 keys in 7 stages, model FPR below 1%: true
}

// Dedup over the last events: a Window of 4 generations of 1000 keys
// remembers at least the last 3000 keys added and forgets older ones.
func ExampleWindow() {
	recent, err := blocked.NewWindow(1000, 0.001, 4)
	if err != nil {
		panic(err)
	}
	recent.AddString("order-17")
	fmt.Println("order-17 again:", recent.TestAndAdd([]byte("order-17")))
	for i := range uint64(3000) { // 3000 later events: order-17 is still in the window
		recent.AddUint64(i)
	}
	fmt.Println("after 3000 more:", recent.TestString("order-17"))
	for i := range uint64(2000) { // two more generations: it has aged out
		recent.AddUint64(1_000_000 + i)
	}
	fmt.Println("after 5000 more:", recent.TestString("order-17"), "rotations:", recent.Epoch())
	// Output:
	// order-17 again: true
	// after 3000 more: true
	// after 5000 more: false rotations: 5
}
