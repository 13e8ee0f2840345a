package counting

import (
	"encoding/binary"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/hashing"
	"github.com/filterengine/filterengine/internal/testkit/perkey"
)

// The per-key benchmarks measure what a service does: one call per key,
// 8-byte []byte keys (hashing included), streaming over n distinct keys
// (n = 1e6, 1e7) of a filter sized for n at p = 1%, so nothing stays
// cached that a service would not have cached.

// streamKeys is one fixture: n distinct 8-byte keys back to back, their
// hashes, and a filter (4-bit) holding all of them.
type streamKeys struct {
	n    int
	flat []byte
	hs   []uint64
	full *Filter
}

func (s *streamKeys) key(i int) []byte { return s.flat[8*i : 8*i+8 : 8*i+8] }

var streams sync.Map // n -> *streamKeys

// cpuClock reports, beside ns/key of the wall clock, cpu-ns/key: the
// benchmark thread's CPU time per key, steadier than the wall clock on a
// machine shared with other jobs. Work done in untimed is left out of
// both.
type cpuClock struct{ start, paused time.Duration }

func startCPU(b *testing.B) *cpuClock {
	runtime.LockOSThread()
	b.Cleanup(runtime.UnlockOSThread)
	b.ResetTimer()
	return &cpuClock{start: perkey.ThreadCPU()}
}

func (c *cpuClock) report(b *testing.B, keys int) {
	perKey(b, keys)
	b.ReportMetric(float64((perkey.ThreadCPU()-c.start-c.paused).Nanoseconds())/float64(keys), "cpu-ns/key")
}

// untimed runs reset (a refill of the filter when the stream wraps) with
// the wall clock stopped and its CPU time left out of cpu-ns/key.
func (c *cpuClock) untimed(b *testing.B, reset func()) {
	b.StopTimer()
	t0 := perkey.ThreadCPU()
	reset()
	c.paused += perkey.ThreadCPU() - t0
	b.StartTimer()
}

func stream(b *testing.B, n uint64) *streamKeys {
	if v, ok := streams.Load(n); ok {
		return v.(*streamKeys)
	}
	s := &streamKeys{n: int(n), flat: make([]byte, 8*n), hs: make([]uint64, n)}
	for i := range s.n {
		binary.LittleEndian.PutUint64(s.flat[8*i:], uint64(i)*0x9e3779b97f4a7c15+12345)
		s.hs[i] = engine.Hash(s.key(i))
	}
	f, err := New(n, 0.01)
	if err != nil {
		b.Fatal(err)
	}
	f.AddHashes(s.hs)
	s.full = f
	streams.Store(n, s)
	return s
}

// BenchmarkPerKeyTest: Test of member keys, one call each.
func BenchmarkPerKeyTest(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			s := stream(b, n)
			c := startCPU(b)
			hits := 0
			for i := range b.N {
				if s.full.Test(s.key(i % s.n)) {
					hits++
				}
			}
			c.report(b, b.N)
			if hits != b.N {
				b.Fatalf("%d of %d members present", hits, b.N)
			}
		})
	}
}

// BenchmarkPerKeyAdd: Add of the n keys into a filter sized for them,
// from empty (cleared outside the timer when the stream wraps).
func BenchmarkPerKeyAdd(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			s := stream(b, n)
			f, err := New(n, 0.01)
			if err != nil {
				b.Fatal(err)
			}
			clear(f.words) // fault the pages in outside the timer
			c := startCPU(b)
			for i := range b.N {
				j := i % s.n
				if j == 0 && i > 0 {
					c.untimed(b, func() { clear(f.words) })
				}
				f.Add(s.key(j))
			}
			c.report(b, b.N)
		})
	}
}

// BenchmarkPerKeyRemove: Remove of the n keys from the filter holding
// them (re-added outside the timer when the stream wraps).
func BenchmarkPerKeyRemove(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			s := stream(b, n)
			f, err := New(n, 0.01)
			if err != nil {
				b.Fatal(err)
			}
			copy(f.words, s.full.words)
			c := startCPU(b)
			for i := range b.N {
				j := i % s.n
				if j == 0 && i > 0 {
					c.untimed(b, func() { copy(f.words, s.full.words) })
				}
				if !f.Remove(s.key(j)) {
					b.Fatal("remove of a member failed")
				}
			}
			c.report(b, b.N)
		})
	}
}

// BenchmarkLoopVsBatch: the same member hashes tested by a loop of
// TestHash calls and by TestHashes on 1024 at a time, with the kernel the
// build picks (-tags purego: the generic batch path). Compare loop and
// batch within one run.
func BenchmarkLoopVsBatch(b *testing.B) {
	const batch = 1024
	for _, n := range benchSizes {
		b.Run(sizeName(n)+"/loop", func(b *testing.B) {
			s := stream(b, n)
			c := startCPU(b)
			hits := 0
			for i := range b.N {
				if s.full.TestHash(s.hs[i%s.n]) {
					hits++
				}
			}
			c.report(b, b.N)
			if hits != b.N {
				b.Fatal("a member tested absent")
			}
		})
		b.Run(sizeName(n)+"/batch", func(b *testing.B) {
			s := stream(b, n)
			out := make([]bool, batch)
			c := startCPU(b)
			done := 0 // b.N keys, a batch at a time
			for off := 0; done < b.N; done += batch {
				if s.full.TestHashes(s.hs[off:off+batch], out) != batch {
					b.Fatal("a member tested absent")
				}
				if off += batch; off+batch > s.n {
					off = 0
				}
			}
			c.report(b, done)
		})
	}
}

// BenchmarkPerKeyFloor measures the two bounds of the per-key paths on
// this machine, for comparison with BenchmarkPerKeyTest/Add/Remove in
// the same run:
//   - line: the hash of a member key and one atomic load from its line,
//     nothing else: the memory floor of any test that reads one line;
//   - cas: one locked compare-and-swap on a word already in L1, back to
//     back: what each of an Add's or Remove's k swaps costs at least (a
//     locked instruction also waits for every earlier load and store).
func BenchmarkPerKeyFloor(b *testing.B) {
	for _, n := range benchSizes {
		b.Run("line/"+sizeName(n), func(b *testing.B) {
			s := stream(b, n)
			f := s.full
			c := startCPU(b)
			var acc uint64
			for i := range b.N {
				key := s.key(i % s.n)
				h := hashing.HashUint64Keyed(binary.LittleEndian.Uint64(key), f.key)
				acc += atomic.LoadUint64(&asm.CountingLine(f.words, h, f.lines)[h>>61])
			}
			c.report(b, b.N)
			floorSink.Store(acc)
		})
	}
	b.Run("cas", func(b *testing.B) {
		var w [asm.CountingLineWords]uint64
		c := startCPU(b)
		for i := range b.N {
			p := &w[i%asm.CountingLineWords]
			old := atomic.LoadUint64(p)
			atomic.CompareAndSwapUint64(p, old, old+1)
		}
		c.report(b, b.N)
	})
}

var floorSink atomic.Uint64
