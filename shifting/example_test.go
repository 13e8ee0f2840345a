package shifting_test

import (
	"bytes"
	"fmt"

	"github.com/filterengine/filterengine/shifting"
)

// ShBF_M is a membership filter with the family's names: New, Add, Test,
// and each pair of a key's bits read with one memory access.
func Example() {
	f, err := shifting.New(10_000, 0.01)
	if err != nil {
		panic(err)
	}
	f.AddString("alice")
	fmt.Println(f.TestString("alice"), f.TestString("carol"))
	fmt.Println(f.M(), f.K())
	fmt.Printf("%.4f\n", f.ModelFPR(10_000))
	// Output:
	// true false
	// 96914 6
	// 0.0100
}

// Save and load: WriteTo and Read copy the filter through a stream
// (MarshalBinary and Decode through bytes).
func Example_saveLoad() {
	f, _ := shifting.New(1000, 0.01)
	for i := range uint64(1000) {
		f.AddUint64(i)
	}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		panic(err)
	}
	g, err := shifting.Read(&buf)
	if err != nil {
		panic(err)
	}
	fmt.Println(g.TestUint64(999), g.M() == f.M())
	// Output:
	// true true
}

// Association (ShBF_A) answers which of two sets a key is in with one
// pass over its windows: a member's answer always includes its true
// outcome, most often alone (a clear answer).
func ExampleAssociation() {
	a, err := shifting.NewAssociation(1000, 0.001)
	if err != nil {
		panic(err)
	}
	_ = a.AddString("only-in-1", shifting.InS1)
	_ = a.AddString("only-in-2", shifting.InS2)
	_ = a.AddString("in-both", shifting.InBoth)
	for _, k := range []string{"only-in-1", "only-in-2", "in-both", "in-neither"} {
		fmt.Printf("%s: %v\n", k, a.QueryString(k))
	}
	// Output:
	// only-in-1: S1 only
	// only-in-2: S2 only
	// in-both: both
	// in-neither: neither
}

// Multiplicity (ShBF_x) records how often a key occurs, up to MaxCount,
// and never answers less than the true count; WithCounters lets a count
// move down as well as up.
func ExampleMultiplicity() {
	x, err := shifting.NewMultiplicity(1000, 0.001, 10, shifting.WithCounters())
	if err != nil {
		panic(err)
	}
	_ = x.AddString("page:/home", 7)
	_ = x.AddString("page:/about", 2)
	fmt.Println(x.CountString("page:/home"), x.CountString("page:/about"), x.CountString("page:/nowhere"))
	if err := x.UpdateString("page:/home", 7, 8); err != nil {
		panic(err)
	}
	fmt.Println(x.CountString("page:/home"))
	// Output:
	// 7 2 0
	// 8
}
