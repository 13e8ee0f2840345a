package classic_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/filterengine/filterengine/classic"
)

// The basic use: size a filter for the keys it will hold, add them, test.
// A false answer is certain; a true answer is wrong for about p of the
// keys never added.
func Example() {
	f, err := classic.New(10_000, 0.01) // 10,000 keys at 1% false positives
	if err != nil {
		panic(err)
	}
	f.Add([]byte("alice"))
	f.AddString("bob")
	fmt.Println(f.Test([]byte("alice")), f.TestString("bob"), f.TestString("carol"))
	fmt.Println(f.M(), f.K())
	fmt.Printf("%.4f\n", f.ModelFPR(10_000))
	// Output:
	// true true false
	// 95851 7
	// 0.0100
}

// Save and load: WriteFile saves atomically, Open maps the file and uses
// it in place, Read (or Decode for bytes) copies it into new memory.
func Example_saveLoad() {
	f, err := classic.New(1000, 0.01)
	if err != nil {
		panic(err)
	}
	for i := range uint64(1000) {
		f.AddUint64(i)
	}
	path := filepath.Join(os.TempDir(), "classic-example.bloom")
	defer os.Remove(path)
	if err := f.WriteFile(path); err != nil {
		panic(err)
	}
	g, err := classic.Open(path)
	if err != nil {
		panic(err)
	}
	defer g.Close()

	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		panic(err)
	}
	h, err := classic.Read(&buf)
	if err != nil {
		panic(err)
	}
	fmt.Println(g.TestUint64(999), h.TestUint64(999), g.Equal(f), h.Equal(f))
	// Output:
	// true true true true
}

// A filter inside a struct goes through encoding/json as one base64
// string (MarshalText) and comes back equal.
func ExampleFilter_MarshalText() {
	type table struct {
		Name  string
		Bloom *classic.Filter
	}
	f, _ := classic.New(100, 0.01)
	f.AddString("key")
	js, err := json.Marshal(table{"t1", f})
	if err != nil {
		panic(err)
	}
	var back table
	if err := json.Unmarshal(js, &back); err != nil {
		panic(err)
	}
	fmt.Println(back.Name, back.Bloom.TestString("key"), back.Bloom.Equal(f))
	// Output:
	// t1 true true
}
