package shifting

import (
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/contracttest"
)

// A closed Association or Multiplicity is a zero one: its methods panic
// naming the constructor. (Before, Close left the released array in
// place and a Query read it: a fatal fault.) Membership's closed filter
// is covered by the conformance suite.
func TestClosedIsZero(t *testing.T) {
	a, _ := NewAssociation(1<<16, 0.01)
	a.AddUint64(1, InS1)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	contracttest.Panics(t, "shifting.Association: zero value, use shifting.NewAssociation", map[string]func(){
		"Add":   func() { _ = a.AddUint64(5, InS1) },
		"Query": func() { _ = a.QueryUint64(5) },
	})
	x, _ := NewMultiplicity(1<<16, 0.01, 15)
	_ = x.AddUint64(1, 3)
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	contracttest.Panics(t, "shifting.Multiplicity: zero value, use shifting.NewMultiplicity", map[string]func(){
		"Add":   func() { _ = x.AddUint64(5, 2) },
		"Count": func() { _ = x.CountUint64(5) },
	})
	if a.Close() != nil || x.Close() != nil {
		t.Error("a second Close failed")
	}
}
