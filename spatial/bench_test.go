package spatial

import (
	"fmt"
	"math/bits"
	"sync"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/cpulevel"
	"github.com/filterengine/filterengine/internal/hashing"
)

// bloomBaseline is a minimal standard Bloom filter for the Check
// benchmark only (families never import each other): m bits, k probes
// with the same hash, double hashing and hashing.Reduce as Filter, so the
// two differ only in cell width and the min over cells. The bench module
// compares with the real classic package.
type bloomBaseline struct {
	m     uint64
	k     uint32
	words []uint64
}

func newBloomBaseline(m uint64, k uint32) *bloomBaseline {
	return &bloomBaseline{m: m, k: k, words: make([]uint64, (m+63)/64)}
}

func (b *bloomBaseline) add(h uint64) {
	delta := bits.RotateLeft64(h, 32)
	for range b.k {
		p := hashing.Reduce(h, b.m)
		b.words[p>>6] |= 1 << (p & 63)
		h += delta
	}
}

func (b *bloomBaseline) test(key []byte) bool {
	h := engine.Hash(key)
	delta := bits.RotateLeft64(h, 32)
	for range b.k {
		p := hashing.Reduce(h, b.m)
		if b.words[p>>6]&(1<<(p&63)) == 0 {
			return false
		}
		h += delta
	}
	return true
}

// benchFixture is a filter of n keys over 10 areas sized for 1%, the
// baseline with as many bits as the filter has cells and the same k, and
// a query set of n keys, half members, half absent, interleaved.
type benchFixture struct {
	f       *Filter
	bloom   *bloomBaseline
	keys    [][]byte
	ks, hs  []uint64
	members [][]byte
}

var fixtures sync.Map

func fixture(b *testing.B, n int) *benchFixture {
	if v, ok := fixtures.Load(n); ok {
		return v.(*benchFixture)
	}
	const areas = 10
	f, err := New(uint64(n), areas, 0.01)
	if err != nil {
		b.Fatal(err)
	}
	fx := &benchFixture{f: f, bloom: newBloomBaseline(f.M(), f.K())}
	for area := 1; area <= areas; area++ {
		keys, _ := keysOf(uint64(area), n/areas)
		for _, key := range keys {
			h := f.hash(key)
			_ = f.InsertHash(h, area)
			fx.bloom.add(h)
		}
		fx.members = append(fx.members, keys...)
	}
	absentKeys, absent := keysOf(999, n/2)
	for i := range n / 2 {
		for _, key := range [][]byte{fx.members[(i*7919)%len(fx.members)], absentKeys[i]} {
			fx.keys = append(fx.keys, key)
			fx.ks = append(fx.ks, uint64FromKey(key))
			fx.hs = append(fx.hs, f.hash(key))
		}
	}
	_ = absent
	fixtures.Store(n, fx)
	return fx
}

func uint64FromKey(key []byte) uint64 {
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(key[i])
	}
	return v
}

func reportPerKey(b *testing.B, perOp int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*perOp), "ns/key")
}

var sink int

// BenchmarkCheck compares, at each of benchSizes keys over 10 areas (k =
// 7, 1% target, 4-bit cells), the spatial Check with the standard Bloom
// Test of the same m and k, both scalar with hashing, then the batch forms
// per kernel.
func BenchmarkCheck(b *testing.B) {
	for _, n := range benchSizes {
		fx := fixture(b, n)
		name := fmt.Sprintf("n=%.0e", float64(n))
		b.Run(name+"/op=bloom-test", func(b *testing.B) {
			hits := 0
			for i := 0; b.Loop(); i++ {
				if fx.bloom.test(fx.keys[i%len(fx.keys)]) {
					hits++
				}
			}
			sink = hits
			reportPerKey(b, 1)
		})
		b.Run(name+"/op=check", func(b *testing.B) {
			hits := 0
			for i := 0; b.Loop(); i++ {
				hits += fx.f.Check(fx.keys[i%len(fx.keys)])
			}
			sink = hits
			reportPerKey(b, 1)
		})
		const batch = 1024
		out := make([]uint16, batch)
		for _, l := range cpulevel.Available() {
			restore, err := cpulevel.Use(l)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(name+"/op=check-hashes/kernel="+l.String(), func(b *testing.B) {
				for i := 0; b.Loop(); i++ {
					j := (i * batch) % (len(fx.hs) - batch)
					sink = fx.f.CheckHashes(fx.hs[j:j+batch], out)
				}
				reportPerKey(b, batch)
			})
			b.Run(name+"/op=check-uint64s/kernel="+l.String(), func(b *testing.B) {
				for i := 0; b.Loop(); i++ {
					j := (i * batch) % (len(fx.ks) - batch)
					sink = fx.f.CheckUint64s(fx.ks[j:j+batch], out)
				}
				reportPerKey(b, batch)
			})
			restore()
		}
	}
}

// BenchmarkInsert measures Insert (CAS per raised cell) into a fresh
// filter sized for the keys inserted.
func BenchmarkInsert(b *testing.B) {
	const n = 1_000_000
	keys, ks := keysOf(5, n)
	hs := make([]uint64, n)
	for i, key := range keys {
		hs[i] = engine.Hash(key)
	}
	b.Run("op=insert-hash", func(b *testing.B) {
		f, _ := New(n, 10, 0.01)
		for i := 0; b.Loop(); i++ {
			_ = f.InsertHash(hs[i%n], 1+i%10)
		}
		reportPerKey(b, 1)
	})
	b.Run("op=insert-uint64s", func(b *testing.B) {
		f, _ := New(n, 10, 0.01)
		const batch = 1024
		for i := 0; b.Loop(); i++ {
			j := (i * batch) % (n - batch)
			_ = f.InsertUint64s(ks[j:j+batch], 1+i%10)
		}
		reportPerKey(b, batch)
	})
}

// benchSizes are the key counts of BenchmarkCheck: 1e4 (48 KB of 4-bit
// cells), 1e5 (0.48 MB) and 1e6 (4.8 MB), from a filter that fits a
// core's L2 cache to one that needs L3.
var benchSizes = []int{10_000, 100_000, 1_000_000}
