package conformance

import (
	"fmt"
	"testing"
)

// Run runs the conformance suite on one membership family: every check
// of the package doc, at every kernel level the machine has.
func Run[T Membership[T]](t *testing.T, fam Family[T]) {
	t.Run("NoFalseNegatives", func(t *testing.T) { noFalseNegatives(t, fam) })
}

// noFalseNegatives adds keys one at a time and tests each in every
// single-key form.
func noFalseNegatives[T Membership[T]](t *testing.T, fam Family[T]) {
	f, err := fam.New(2000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	for i := range uint64(2000) {
		key := fmt.Appendf(nil, "key-%d", i)
		f.Add(key)
		f.AddUint64(i)
		if !f.Test(key) || !f.TestString(string(key)) || !f.TestUint64(i) {
			t.Fatalf("%s: key %d lost", fam.Name, i)
		}
	}
}
