package classic_test

import (
	"fmt"

	"github.com/filterengine/filterengine/classic"
)

// A Dynamic filter grows by rows of nr keys: a million keys at nr = 1e5
// make ten rows, and the model false-positive rate grows with them.
func ExampleDynamic() {
	d, err := classic.NewDynamic(100_000, 0.01)
	if err != nil {
		panic(err)
	}
	ks := make([]uint64, 1_000_000)
	for i := range ks {
		ks[i] = uint64(i)
	}
	d.AddUint64s(ks)

	out := make([]bool, 3)
	hits := d.TestUint64s([]uint64{7, 999_999, 123_456}, out) // hashed once for all rows
	fmt.Println(d.Rows(), "rows,", hits, "of 3 found")
	fmt.Printf("model FPR after 1e6 keys: %.3f\n", d.ModelFPR(1_000_000))

	seen := d.TestAndAdd([]byte("new event")) // adds only when absent
	fmt.Println("seen before:", seen, "now:", d.Test([]byte("new event")), "rows:", d.Rows())
	// Output:
	// 10 rows, 3 of 3 found
	// model FPR after 1e6 keys: 0.096
	// seen before: false now: true rows: 11
}
