package engine_test

import (
	"errors"
	"fmt"

	"github.com/filterengine/filterengine/engine"
)

// Sizing a classic filter for a million keys at 1%: the optimal number of
// bits, the optimal number of probes for them, and the rate the model
// then predicts.
func ExampleOptimalBits() {
	const n = 1_000_000
	m, err := engine.OptimalBits(n, 0.01)
	if err != nil {
		fmt.Println(err)
		return
	}
	k := engine.OptimalK(m, n)
	fmt.Println(m, k)
	fmt.Printf("%.4f\n", engine.FPR(m, n, k))
	// Output:
	// 9585059 7
	// 0.0100
}

// An integer key and its 8 little-endian bytes hash alike, so a filter
// fed AddUint64s answers Test for the same bytes.
func ExampleHashUint64() {
	b := []byte{7, 0, 0, 0, 0, 0, 0, 0}
	fmt.Println(engine.HashUint64(7) == engine.Hash(b))
	fmt.Println(engine.HashStringSeed("alice", 42) == engine.HashSeed([]byte("alice"), 42))
	fmt.Println(engine.HashString("alice") == engine.Hash([]byte("alice")))
	// Output:
	// true
	// true
	// true
}

// Bad parameters are errors wrapping ErrParam, never a panic or a silent
// clamp.
func ExampleOptimalBits_error() {
	_, err := engine.OptimalBits(1000, 1.5)
	fmt.Println(errors.Is(err, engine.ErrParam))
	fmt.Println(err)
	// Output:
	// true
	// filterengine: invalid parameter: false-positive rate p = 1.5 outside (0, 1)
}
