package spatial

import (
	"encoding/binary"
	"fmt"
	"sync"
	"testing"

	"github.com/filterengine/filterengine/classic"
	"github.com/filterengine/filterengine/internal/testkit/perkey"
)

// perKeyFixture is the single-key workload: n distinct 8-byte keys (the
// little-endian bytes of a counter), inserted a quarter each into 4
// areas of a filter sized for p = 1%, and a classic filter of the same
// n and p holding the same keys. absent holds n other keys.
type perKeyFixture struct {
	f, lf          *Filter // libSBF's layout, line-local
	c              *classic.Filter
	members, other []byte // n keys of 8 bytes each, back to back
}

var perKeyFixtures sync.Map

const perKeyAreas = 4

func perKeyKeys(base uint64, n int) []byte {
	flat := make([]byte, 8*n)
	for i := range n {
		binary.LittleEndian.PutUint64(flat[8*i:], base+uint64(i)*0x9e3779b97f4a7c15)
	}
	return flat
}

func perKeyFill(b *testing.B, n int) *perKeyFixture {
	if v, ok := perKeyFixtures.Load(n); ok {
		return v.(*perKeyFixture)
	}
	fx := &perKeyFixture{members: perKeyKeys(1, n), other: perKeyKeys(2, n)}
	var err error
	if fx.f, err = New(uint64(n), perKeyAreas, 0.01); err != nil {
		b.Fatal(err)
	}
	if fx.lf, err = New(uint64(n), perKeyAreas, 0.01, WithLineLocal()); err != nil {
		b.Fatal(err)
	}
	if fx.c, err = classic.New(uint64(n), 0.01); err != nil {
		b.Fatal(err)
	}
	for i := range n {
		key := fx.members[8*i : 8*i+8]
		_ = fx.f.Insert(key, 1+i*perKeyAreas/n)
		_ = fx.lf.Insert(key, 1+i*perKeyAreas/n)
		fx.c.Add(key)
	}
	perKeyFixtures.Store(n, fx)
	return fx
}

// perKeyRun calls op once per key over the n keys of flat in order, as a
// service answering one request at a time would, wrapping around.
func perKeyRun(b *testing.B, flat []byte, op func(key []byte) int) {
	n := len(flat) / 8
	hits, i := 0, 0
	for b.Loop() {
		hits += op(flat[8*i : 8*i+8 : 8*i+8])
		if i++; i == n {
			i = 0
		}
	}
	sink = hits
	reportPerKey(b, 1)
}

// BenchmarkPerKey is the single-key comparison in one process:
// spatial Check (4 areas, p = 1%) against classic Test (same n and p),
// each called once per 8-byte []byte key with hashing included, over n
// distinct member keys and n absent ones; and Insert (classic Add)
// streaming n distinct keys into a fresh filter.
func BenchmarkPerKey(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		fx := perKeyFill(b, n)
		name := fmt.Sprintf("n=%.0e", float64(n))
		for _, set := range []struct {
			name string
			keys []byte
		}{{"member", fx.members}, {"absent", fx.other}} {
			b.Run(name+"/op=classic-test/keys="+set.name, func(b *testing.B) {
				perKeyRun(b, set.keys, func(key []byte) int {
					if fx.c.Test(key) {
						return 1
					}
					return 0
				})
			})
			b.Run(name+"/op=check/layout=libsbf/keys="+set.name, func(b *testing.B) {
				perKeyRun(b, set.keys, fx.f.Check)
			})
			b.Run(name+"/op=check/layout=line/keys="+set.name, func(b *testing.B) {
				perKeyRun(b, set.keys, fx.lf.Check)
			})
		}
		// The writes start over on an empty filter, timer stopped, after
		// each pass over the n keys (perkey.Run), so no filter holds more
		// than its n keys and every insert is of a new key.
		b.Run(name+"/op=classic-add", func(b *testing.B) {
			var c *classic.Filter
			reset := func() { c, _ = classic.New(uint64(n), 0.01) }
			reset()
			perkey.Run(b, n, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					c.Add(fx.other[8*i : 8*i+8 : 8*i+8])
				}
			}, reset)
		})
		for _, layout := range layoutOptions {
			b.Run(name+"/op=insert/layout="+layout.name, func(b *testing.B) {
				var f *Filter
				reset := func() { f, _ = New(uint64(n), perKeyAreas, 0.01, layout.opt) }
				reset()
				perkey.Run(b, n, func(lo, hi int) {
					for i := lo; i < hi; i++ {
						_ = f.Insert(fx.other[8*i:8*i+8:8*i+8], 1+i%perKeyAreas)
					}
				}, reset)
			})
		}
	}
}

// BenchmarkBatchVsLoop compares, on the same hashes of n distinct member
// keys, CheckHashes in batches of 1024 with a loop of CheckHash, per
// layout, at the current kernel level (run with -tags purego for the
// generic path arm64 gets).
func BenchmarkBatchVsLoop(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		fx := perKeyFill(b, n)
		hs := make([]uint64, n)
		for i := range n {
			hs[i] = fx.f.hash(fx.members[8*i : 8*i+8])
		}
		const batch = 1024
		out := make([]uint16, batch)
		for _, f := range []*Filter{fx.f, fx.lf} {
			name := fmt.Sprintf("n=%.0e/layout=%s", float64(n), map[bool]string{false: "libsbf", true: "line"}[f.LineLocal()])
			b.Run(name+"/op=check-hashes", func(b *testing.B) {
				j := 0
				for b.Loop() {
					sink += f.CheckHashes(hs[j:j+batch], out)
					if j += batch; j+batch > n {
						j = 0
					}
				}
				reportPerKey(b, batch)
			})
			b.Run(name+"/op=check-hash-loop", func(b *testing.B) {
				j := 0
				for b.Loop() {
					hits := 0
					for _, h := range hs[j : j+batch] {
						hits += f.CheckHash(h)
					}
					sink += hits
					if j += batch; j+batch > n {
						j = 0
					}
				}
				reportPerKey(b, batch)
			})
		}
	}
}
