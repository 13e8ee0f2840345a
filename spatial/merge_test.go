package spatial

import (
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/filterengine/filterengine/engine"
)

// TestMerge: merging two halves (odd areas in one, even in the other)
// gives the cells of one filter built from every key, for 4-bit (8
// areas) and 8-bit (40 areas) cells.
func TestMerge(t *testing.T) {
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
		if err := left.Merge(right); err != nil {
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
// no false negatives, for 4-bit (12 areas), 8-bit (100) and 16-bit (300)
// cells. Run under -race by make test.
func TestInsertConcurrent(t *testing.T) {
	for _, areas := range []int{12, 100, 300} {
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

// TestInsertConcurrentNeighbours gives each cell of a 16-cell, k = 1
// filter its own goroutine, which raises it through every label up to a
// target of its own while the other goroutines do the same to the cells
// sharing its 32-bit word (eight 4-bit cells a word, four 8-bit, two
// 16-bit) and a reader checks. A CAS that wrote back a stale neighbour
// would leave some cell below its target.
func TestInsertConcurrentNeighbours(t *testing.T) {
	const m = 16
	for _, areas := range []int{15, 255, 65535} {
		f, err := NewMK(m, 1, areas)
		if err != nil {
			t.Fatal(err)
		}
		target := func(p uint64) int { return areas - int(p)%3 }
		rounds := min(areas-2, 300)
		var wg sync.WaitGroup
		for p := uint64(0); p < m; p++ {
			h := p << 60 // Reduce(h, 16) = p
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 1; i <= rounds; i++ {
					_ = f.InsertHash(h, target(p)-rounds+i)
				}
			}()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := make([]uint16, m)
			hs := make([]uint64, m)
			for p := range hs {
				hs[p] = uint64(p) << 60
			}
			for range 50 {
				f.CheckHashes(hs, out)
			}
		}()
		wg.Wait()
		for p := uint64(0); p < m; p++ {
			if got := f.CheckHash(p << 60); got != target(p) {
				t.Errorf("%d-bit cells: cell %d = %d, want %d", f.CellBits(), p, got, target(p))
			}
		}
		if s := f.Stats(); s.Members != uint64(m*rounds) || s.NonZero != m {
			t.Errorf("%d-bit cells: %d members, %d cells set", f.CellBits(), s.Members, s.NonZero)
		}
	}
}
