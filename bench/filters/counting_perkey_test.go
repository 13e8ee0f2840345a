package filters

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	boom "github.com/tylertreat/BoomFilters"

	"github.com/filterengine/filterengine/counting"
	"github.com/filterengine/filterengine/internal/testkit/perkey"
)

// BenchmarkCountingPerKey compares our counting filter (4-bit) with
// tylertreat/BoomFilters' CountingBloomFilter (4-bit buckets) one call
// per key, in one process: 8-byte []byte keys (hashing included), p =
// 1%, streaming over n distinct keys of a filter sized for n. Test asks
// member keys of a full filter, Add fills an empty filter (its pages
// already faulted in by Reset, outside the timer), Remove empties a full
// one. The two libraries take turns every pairChunk keys, and
// -count repeats them, so load from other jobs on a shared machine falls
// on both alike; metrics:
// ours-ns/key and boom-ns/key (the thread's CPU time per key, which
// leaves out time spent waiting for a core), boom/ours (their ratio) and
// ns/op (wall clock, both libraries per key pair). b.N must not exceed n:
//
//	go test -run '^$' -bench CountingPerKey -benchtime 1000000x -count 3 ./filters
func BenchmarkCountingPerKey(b *testing.B) {
	const p = 0.01
	for _, n := range perkey.Sizes {
		keys := perkey.New(0, n)
		for _, op := range []string{"Test", "Add", "Remove"} {
			b.Run(fmt.Sprintf("%s/%s", op, perkey.Name(n)), func(b *testing.B) {
				if b.N > n {
					b.Skipf("b.N = %d above n = %d: pass -benchtime=%dx or less", b.N, n, n)
				}
				ours := perKeyFilter(b, "ours", keys, p, op)
				peer := perKeyFilter(b, "boom", keys, p, op)
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				var spent [2]time.Duration
				b.ResetTimer()
				for start := 0; start < b.N; start += pairChunk {
					end := min(b.N, start+pairChunk)
					for lib, call := range []func([]byte) bool{ours, peer} {
						t0 := perkey.ThreadCPU()
						miss := 0
						for i := start; i < end; i++ {
							if !call(keys.At(i)) {
								miss++
							}
						}
						spent[lib] += perkey.ThreadCPU() - t0
						if miss != 0 {
							b.Fatalf("%d of %d member keys absent", miss, end-start)
						}
					}
				}
				o, q := float64(spent[0].Nanoseconds())/float64(b.N), float64(spent[1].Nanoseconds())/float64(b.N)
				b.ReportMetric(o, "ours-ns/key")
				b.ReportMetric(q, "boom-ns/key")
				b.ReportMetric(q/o, "boom/ours")
			})
		}
	}
}

// pairChunk is how many keys one library takes before the other's turn:
// a whole pass at n = 1e6, so each side runs with its own filter in the
// caches as a service's one filter would, as BenchmarkPerKeyVs's sides
// do, rather than with what the other side's turn left of it; -count
// repeats the pair, so both see the same spells of load.
const pairChunk = 1 << 20

// perKeyFilter returns the per-key call of op on a fresh filter of lib
// sized for keys at p, holding all of them unless op is Add; the call
// reports false for a member key found absent (Add reports true).
func perKeyFilter(b *testing.B, lib string, keys *perkey.Keys, p float64, op string) func([]byte) bool {
	n := keys.Len()
	var add func([]byte)
	var test, remove func([]byte) bool
	switch lib {
	case "ours":
		f, err := counting.New(uint64(n), p)
		if err != nil {
			b.Fatal(err)
		}
		f.Reset() // fault the fresh filter's pages in, outside the timer
		add, test, remove = f.Add, f.Test, f.Remove
	default:
		f := boom.NewCountingBloomFilter(uint(n), 4, p)
		f.Reset()
		add, test, remove = func(k []byte) { f.Add(k) }, f.Test, f.TestAndRemove
	}
	if op != "Add" {
		for i := range n {
			add(keys.At(i))
		}
	}
	switch op {
	case "Test":
		return test
	case "Remove":
		return remove
	}
	return func(k []byte) bool { add(k); return true }
}
