package blocked

import (
	"sync"
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

// Writers on every goroutine add disjoint keys with atomic ORs, half one
// key at a time and half in AddHashesConcurrent batches of every tail
// length, while testing them with TestConcurrent; afterwards every key
// tests true and the filter equals one built sequentially. At every
// kernel level, under -race in make test.
func TestAddConcurrent(t *testing.T) {
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		const workers, per = 4, 5000
		f, _ := New(workers*per, 0.01)
		ref, _ := New(workers*per, 0.01)
		keys := randomKeys(11, workers*per)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				mine := keys[w*per : (w+1)*per]
				if w%2 == 1 {
					hs := make([]uint64, len(mine))
					for i, k := range mine {
						hs[i] = f.hash(keyBytes(k))
					}
					for _, b := range kerneltest.Batches(hs) {
						f.AddHashesConcurrent(b)
						for _, h := range b {
							if !f.TestHashConcurrent(h) {
								t.Errorf("key tests absent right after its concurrent batch add")
								return
							}
						}
					}
					return
				}
				for _, k := range mine {
					f.AddConcurrent(keyBytes(k))
					if !f.TestConcurrent(keyBytes(k)) {
						t.Errorf("key tests absent right after its concurrent add")
						return
					}
				}
			})
		}
		wg.Wait()
		ref.AddUint64s(keys)
		if !f.Equal(ref) {
			t.Error("concurrent adds set other bits than sequential adds")
		}
	})
}
