package spatial_test

import (
	"fmt"

	"github.com/filterengine/filterengine/spatial"
)

// Areas: one filter answers which of several disjoint sets a key is in.
// Here area 1 is the EU, 2 Asia and 3 the Americas; Check returns the
// area a key was inserted into, 0 for a key in none (never wrong).
func Example_areas() {
	f, err := spatial.New(10_000, 3, 0.01)
	if err != nil {
		panic(err)
	}
	for area, cities := range [][]string{{"lisbon", "berlin"}, {"tokyo", "seoul"}, {"lima", "toronto"}} {
		for _, c := range cities {
			if err := f.InsertString(c, area+1); err != nil {
				panic(err)
			}
		}
	}
	for _, c := range []string{"berlin", "seoul", "toronto", "cairo"} {
		fmt.Println(c, f.CheckString(c))
	}
	fmt.Println(f.InsertString("oslo", 4)) // no area 4
	// Output:
	// berlin 1
	// seoul 2
	// toronto 3
	// cairo 0
	// filterengine: invalid parameter: area 4 outside [1, 3]
}

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

// Cells per key of both layouts for 1e6 keys over 4 areas at 1%.
func ExampleWithLineLocal_size() {
	f, _ := spatial.New(1_000_000, 4, 0.01)
	l, _ := spatial.New(1_000_000, 4, 0.01, spatial.WithLineLocal())
	fmt.Printf("libSBF: %.2f cells per key, k = %d\n", float64(f.M())/1e6, f.K())
	fmt.Printf("line-local: %.2f cells per key, k = %d\n", float64(l.M())/1e6, l.K())
	// Output:
	// libSBF: 9.62 cells per key, k = 7
	// line-local: 10.85 cells per key, k = 6
}
