package spatial

import (
	"slices"
	"sync"
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

// TestInsertConcurrent inserts every area from its own goroutine (so
// areas race on shared words in every order) while readers check with
// every single-key and batch form, in batches whose lengths leave a tail
// for the generic loop at every vector width; then it requires the cells
// of a sequential build, exact member counts and no false negatives, for
// 4-bit (12 areas), 8-bit (100) and 16-bit (300) cells at every kernel
// level. Under -race (make test) a plain read of a cell in any Check path
// is reported: the tails run in Go at every level.
func TestInsertConcurrent(t *testing.T) {
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		for _, areas := range []int{12, 100, 300} {
			const perArea = 100 // 1, 7, 9, 15, 17, 33 and a tail of 18
			f := mustNew(t, uint64(areas*perArea), areas, 0.05)
			seq := mustNew(t, uint64(areas*perArea), areas, 0.05)
			var wg sync.WaitGroup
			for area := 1; area <= areas; area++ {
				keys, ks := keysOf(uint64(area), perArea)
				_ = seq.InsertKeys(keys, area)
				wg.Go(func() {
					switch area % 3 {
					case 0:
						for _, b := range kerneltest.Batches(ks) {
							_ = f.InsertUint64s(b, area)
						}
					case 1:
						for _, key := range keys {
							_ = f.Insert(key, area)
						}
					default:
						for _, b := range kerneltest.Batches(keys) {
							_ = f.InsertKeys(b, area)
						}
					}
				})
				wg.Go(func() {
					// Keys of the area before, which may be in flight.
					other, oks := keysOf(uint64(max(area-1, 1)), perArea)
					out := make([]uint16, perArea)
					for _, b := range kerneltest.Batches(oks) {
						f.CheckUint64s(b, out)
					}
					for _, b := range kerneltest.Batches(other) {
						f.CheckKeys(b, out)
					}
					for _, key := range other[:20] {
						f.Check(key)
					}
				})
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
	})
}

// TestInsertConcurrentNeighbours gives each cell of a 16-cell, k = 1
// filter its own goroutine, which raises it through every label up to a
// target of its own while the other goroutines do the same to the cells
// sharing its 32-bit word (eight 4-bit cells a word, four 8-bit, two
// 16-bit) and a reader checks in batches of every tail length. A CAS that
// wrote back a stale neighbour would leave some cell below its target.
func TestInsertConcurrentNeighbours(t *testing.T) {
	kerneltest.ForEachLevel(t, func(t *testing.T) {
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
				wg.Go(func() {
					for i := 1; i <= rounds; i++ {
						_ = f.InsertHash(h, target(p)-rounds+i)
					}
				})
			}
			wg.Go(func() {
				hs := make([]uint64, 1000)
				for i := range hs {
					hs[i] = uint64(i%m) << 60
				}
				out := make([]uint16, len(hs))
				for range 5 {
					for _, b := range kerneltest.Batches(hs) {
						f.CheckHashes(b, out)
					}
				}
			})
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
	})
}
