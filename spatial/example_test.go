package spatial_test

import (
	"fmt"

	"github.com/filterengine/filterengine/spatial"
)

// A line-local filter reads one cache line per Check; the string and
// integer forms answer as the key's bytes.
func ExampleWithLineLocal() {
	f, err := spatial.New(1000, 3, 0.01, spatial.WithLineLocal())
	if err != nil {
		panic(err)
	}
	_ = f.InsertString("lisbon", 1)
	_ = f.InsertUint64(42, 3)
	fmt.Println(f.LineLocal(), f.CheckString("lisbon"), f.Check([]byte("lisbon")), f.CheckUint64(42))
	// Output: true 1 1 3
}

// Sizes per key of both layouts for 1e6 keys over 4 areas at 1%.
func ExampleSizeLineLocal() {
	m, k, _ := spatial.Size(1_000_000, 0.01)
	lm, lk, _ := spatial.SizeLineLocal(1_000_000, 4, 0.01)
	fmt.Printf("libSBF: %.2f cells per key, k = %d\n", float64(m)/1e6, k)
	fmt.Printf("line-local: %.2f cells per key, k = %d\n", float64(lm)/1e6, lk)
	// Output:
	// libSBF: 9.62 cells per key, k = 7
	// line-local: 10.85 cells per key, k = 6
}
