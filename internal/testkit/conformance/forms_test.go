package conformance_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/classic"
	"github.com/filterengine/filterengine/counting"
	"github.com/filterengine/filterengine/internal/testkit/conformance"
	"github.com/filterengine/filterengine/shifting"
)

// The membership families' filters hold the concurrent contract at
// compile time.
var (
	_ conformance.ConcurrentDedup = (*blocked.Filter)(nil)
	_ conformance.ConcurrentDedup = (*classic.Filter)(nil)
	_ conformance.ConcurrentDedup = (*shifting.Filter)(nil)
	_ conformance.ConcurrentDedup = (*counting.Filter)(nil)
	_ conformance.ConcurrentDedup = (*blocked.Window)(nil)
)

// concurrentMethods lists the methods of v's type whose names end in
// Concurrent, sorted.
func concurrentMethods(v any) []string {
	typ := reflect.TypeOf(v)
	var names []string
	for i := range typ.NumMethod() {
		if name := typ.Method(i).Name; strings.HasSuffix(name, "Concurrent") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// The flagship filters of blocked, classic, shifting and counting, and
// blocked's Window, offer the same *Concurrent set, counting adding only
// its Remove forms, and that set holds the Concurrent and
// ConcurrentDedup interfaces whole.
func TestConcurrentFormsSame(t *testing.T) {
	want := concurrentMethods((*blocked.Filter)(nil))
	var contract []string
	for _, iface := range []reflect.Type{
		reflect.TypeFor[conformance.Concurrent](), reflect.TypeFor[conformance.ConcurrentDedup](),
	} {
		for i := range iface.NumMethod() {
			contract = append(contract, iface.Method(i).Name)
		}
	}
	slices.Sort(contract)
	if !slices.Equal(want, contract) {
		t.Errorf("blocked.Filter's *Concurrent methods %v, the contract's %v", want, contract)
	}
	for name, v := range map[string]any{
		"classic.Filter":  (*classic.Filter)(nil),
		"shifting.Filter": (*shifting.Filter)(nil),
		"counting.Filter": (*counting.Filter)(nil),
		"blocked.Window":  (*blocked.Window)(nil),
	} {
		got := slices.DeleteFunc(concurrentMethods(v), func(m string) bool {
			return name == "counting.Filter" && strings.HasPrefix(m, "Remove")
		})
		if !slices.Equal(got, want) {
			t.Errorf("%s's *Concurrent methods %v, blocked.Filter's %v", name, got, want)
		}
	}
	if removes := concurrentMethods((*counting.Filter)(nil)); len(removes) == len(want) {
		t.Error("counting.Filter has no Remove *Concurrent forms")
	}
}
