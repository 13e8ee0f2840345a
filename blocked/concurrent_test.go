package blocked

import (
	"sync"
	"testing"
)

// Writers on every goroutine add disjoint keys with atomic ORs while
// readers test them; afterwards every key tests true and the filter equals
// one built sequentially.
func TestAddConcurrent(t *testing.T) {
	const workers, per = 4, 5000
	f, _ := New(workers*per, 0.01)
	ref, _ := New(workers*per, 0.01)
	keys := randomKeys(11, workers*per)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := keys[w*per : (w+1)*per]
			for i, k := range mine {
				f.AddConcurrent(keyBytes(k))
				if !f.TestConcurrent(keyBytes(mine[i])) {
					t.Errorf("key tests absent right after its concurrent add")
					return
				}
			}
		}()
	}
	wg.Wait()
	ref.AddUint64s(keys)
	if !f.Equal(ref) {
		t.Error("concurrent adds set other bits than sequential adds")
	}
}
