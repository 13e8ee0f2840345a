package classic_test

import (
	"fmt"

	"github.com/filterengine/filterengine/classic"
)

// A retouched filter removes a known false positive at the price of
// possibly losing added keys, which it counts exactly.
func ExampleRetouched() {
	r, err := classic.NewRetouched(1000, 0.05)
	if err != nil {
		panic(err)
	}
	for i := range 1000 {
		r.AddString(fmt.Sprint("user-", i))
	}
	// A key that was never added but tests present: a false positive.
	fp := ""
	for i := 0; fp == ""; i++ {
		if s := fmt.Sprint("guest-", i); r.TestString(s) {
			fp = s
		}
	}
	r.AddFalsePositive([]byte(fp))
	cleared := r.SelectiveClearing([]byte(fp), classic.ClearRatio) // may lose added keys
	fmt.Println("cleared:", cleared, "still present:", r.TestString(fp))
	fmt.Println("added keys lost:", r.FalseNegatives())
	// Output:
	// cleared: true still present: false
	// added keys lost: 1
}
