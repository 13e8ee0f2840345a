package spatial

import (
	"errors"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/engine"
)

// TestUnion: merging two halves (odd areas in one, even in the other)
// gives the cells of one filter built from every key, for 4-bit (8
// areas) and 8-bit (40 areas) cells.
func TestUnion(t *testing.T) {
	for _, areas := range []int{8, 40} {
		const perArea = 500
		n := uint64(areas * perArea)
		whole := mustNew(t, n, areas, 0.01)
		left := mustNew(t, n, areas, 0.01)
		right := mustNew(t, n, areas, 0.01)
		for area := 1; area <= areas; area++ {
			keys, _ := keysOf(uint64(area), perArea)
			_ = whole.InsertKeys(keys, area)
			half := left
			if area%2 == 0 {
				half = right
			}
			_ = half.InsertKeys(keys, area)
		}
		if err := left.Union(right); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(left.cells, whole.cells) {
			t.Errorf("%d areas: merged cells differ from inserting every key into one filter", areas)
		}
		sl, sw := left.Stats(), whole.Stats()
		if sl.Members != sw.Members || sl.NonZero != sw.NonZero || sl.Area[3].Members != perArea ||
			!slices.EqualFunc(sl.Area, sw.Area, func(a, b AreaStats) bool { return a.Cells == b.Cells }) {
			t.Errorf("%d areas: merged stats: %d members, %d cells; want %d, %d", areas, sl.Members, sl.NonZero, sw.Members, sw.NonZero)
		}
		checkMembers(t, left, perArea)
	}
}

func TestUnionMismatch(t *testing.T) {
	base, _ := NewMK(1000, 3, 5)
	for name, other := range map[string]func() (*Filter, error){
		"m":     func() (*Filter, error) { return NewMK(1001, 3, 5) },
		"k":     func() (*Filter, error) { return NewMK(1000, 4, 5) },
		"areas": func() (*Filter, error) { return NewMK(1000, 3, 6) },
		"seed":  func() (*Filter, error) { return NewMK(1000, 3, 5, engine.WithSeed(1)) },
	} {
		o, err := other()
		if err != nil {
			t.Fatal(err)
		}
		if err := base.Union(o); !errors.Is(err, engine.ErrParam) {
			t.Errorf("merge with different %s: %v", name, err)
		}
	}
}
