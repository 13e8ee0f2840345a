package spatial

import (
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/filterengine/filterengine/engine"
)

func TestMerge(t *testing.T) {
	whole := mustNew(t, 4000, 8, 0.01)
	left := mustNew(t, 4000, 8, 0.01)
	right := mustNew(t, 4000, 8, 0.01)
	for area := 1; area <= 8; area++ {
		keys, _ := keysOf(uint64(area), 500)
		_ = whole.InsertKeys(keys, area)
		half := left
		if area%2 == 0 {
			half = right
		}
		_ = half.InsertKeys(keys, area)
	}
	if err := left.Merge(right); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(left.cells, whole.cells) {
		t.Error("merged cells differ from inserting every key into one filter")
	}
	sl, sw := left.Stats(), whole.Stats()
	if sl.Members != sw.Members || sl.NonZero != sw.NonZero || sl.Area[3].Members != 500 {
		t.Errorf("merged stats: %d members, %d cells; want %d, %d", sl.Members, sl.NonZero, sw.Members, sw.NonZero)
	}
	checkMembers(t, left, 500)
}

func TestMergeMismatch(t *testing.T) {
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
		if err := base.Merge(o); !errors.Is(err, engine.ErrParam) {
			t.Errorf("merge with different %s: %v", name, err)
		}
	}
}

// TestInsertConcurrent inserts every area from its own goroutine (so
// areas race on shared words in every order) while readers check, and
// then requires the cells of a sequential build, exact member counts and
// no false negatives. Run under -race by make test.
func TestInsertConcurrent(t *testing.T) {
	for _, areas := range []int{12, 300} {
		const perArea = 200
		f := mustNew(t, uint64(areas*perArea), areas, 0.05)
		seq := mustNew(t, uint64(areas*perArea), areas, 0.05)
		var wg sync.WaitGroup
		for area := 1; area <= areas; area++ {
			keys, ks := keysOf(uint64(area), perArea)
			_ = seq.InsertKeys(keys, area)
			wg.Add(2)
			go func() {
				defer wg.Done()
				if area%2 == 0 {
					_ = f.InsertUint64s(ks, area)
				} else {
					for _, key := range keys {
						_ = f.Insert(key, area)
					}
				}
			}()
			go func() {
				defer wg.Done()
				out := make([]uint16, perArea)
				f.CheckUint64s(ks, out)
				for _, key := range keys[:50] {
					f.Check(key)
				}
			}()
		}
		wg.Wait()
		if !slices.Equal(f.cells, seq.cells) {
			t.Fatalf("%d areas: concurrent inserts lost a raise", areas)
		}
		if s := f.Stats(); s.Members != uint64(areas*perArea) {
			t.Errorf("%d areas: %d members counted", areas, s.Members)
		}
		checkMembers(t, f, perArea)
	}
}
