package shifting

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/cpulevel"
)

// queryCount is the size of the query ring each benchmark cycles through:
// larger than any cache effect of the ring itself, random order.
const queryCount = 1 << 16

func reportPerKey(b *testing.B, keysPerOp int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*keysPerOp), "ns/key")
}

// benchHashes returns queryCount hashes: members of [memberBase,
// memberBase+n) when present, fresh keys otherwise.
func benchHashes(n uint64, present bool) []uint64 {
	r := rand.New(rand.NewPCG(n, 77))
	hs := make([]uint64, queryCount)
	for i := range hs {
		if present {
			hs[i] = engine.HashUint64(memberBase + r.Uint64N(n))
		} else {
			hs[i] = engine.HashUint64(absentBase + r.Uint64())
		}
	}
	return hs
}

var benchSizes = []uint64{1e6, 1e7}

// BenchmarkMembershipTest compares ShBF_M with a standard Bloom filter of
// the same m, n and k (m/n = 10, k = 10, the seed's experiment ratio):
// scalar single-key tests of members and of absent keys, then the batch
// kernel per level.
func BenchmarkMembershipTest(b *testing.B) {
	const bitsPerKey, k = 10, 10
	for _, n := range benchSizes {
		f, err := NewMK(bitsPerKey*n, k)
		if err != nil {
			b.Fatal(err)
		}
		base := newBaselineBloom(bitsPerKey*n, k)
		ks := members(memberBase, n)
		f.AddUint64s(ks)
		hs := make([]uint64, 1024)
		for i := 0; i < len(ks); i += len(hs) {
			asm.HashUint64s(hs, ks[i:min(i+len(hs), len(ks))], 0)
			for _, h := range hs[:min(len(hs), len(ks)-i)] {
				base.addHash(h)
			}
		}
		for _, present := range []bool{true, false} {
			qs := benchHashes(n, present)
			kind := map[bool]string{true: "present", false: "absent"}[present]
			prefix := fmt.Sprintf("n=%.0e/%s", float64(n), kind)
			b.Run(prefix+"/classic-scalar", func(b *testing.B) {
				hits := 0
				for i := 0; b.Loop(); i++ {
					if base.testHash(qs[i&(queryCount-1)]) {
						hits++
					}
				}
				reportPerKey(b, 1)
			})
			b.Run(prefix+"/shbf-scalar", func(b *testing.B) {
				hits := 0
				for i := 0; b.Loop(); i++ {
					if f.TestHash(qs[i&(queryCount-1)]) {
						hits++
					}
				}
				reportPerKey(b, 1)
			})
			out := make([]bool, 1024)
			for _, l := range cpulevel.Available() {
				b.Run(prefix+"/shbf-batch-"+l.String(), func(b *testing.B) {
					restore, err := cpulevel.Use(l)
					if err != nil {
						b.Fatal(err)
					}
					defer restore()
					for i := 0; b.Loop(); i++ {
						off := (i * len(out)) & (queryCount - 1)
						f.TestHashes(qs[off:off+len(out)], out)
					}
					reportPerKey(b, len(out))
				})
			}
		}
	}
}

// BenchmarkAssociationQuery compares ShBF_A with one standard Bloom filter
// per set (S1 and S2 of n/2 keys each, a quarter of them in both), both at
// 1% per filter: members of S1 ∪ S2 are queried.
func BenchmarkAssociationQuery(b *testing.B) {
	for _, n := range benchSizes {
		a, err := NewAssociation(n, 0.01)
		if err != nil {
			b.Fatal(err)
		}
		m1, _ := engine.OptimalBits(n*5/8, 0.01) // |S1| = |S2| = 5n/8 with n/4 shared
		k1 := engine.OptimalK(m1, n*5/8)
		bf1, bf2 := newBaselineBloom(m1, k1), newBaselineBloom(m1, k1)
		for i := range n {
			h := engine.HashUint64(memberBase + i)
			switch i % 4 {
			case 0, 1:
				_ = a.AddHash(h, Sets(i%2+1))
				if i%2 == 0 {
					bf1.addHash(h)
				} else {
					bf2.addHash(h)
				}
			default:
				if i%4 == 2 {
					_ = a.AddHash(h, InBoth)
					bf1.addHash(h)
					bf2.addHash(h)
				} else {
					_ = a.AddHash(h, Sets(1+i%8/4)) // the rest half to each set
					[]*baselineBloom{bf1, bf2}[i%8/4].addHash(h)
				}
			}
		}
		qs := benchHashes(n, true)
		prefix := fmt.Sprintf("n=%.0e", float64(n))
		b.Run(prefix+"/two-bloom", func(b *testing.B) {
			var both int
			for i := 0; b.Loop(); i++ {
				h := qs[i&(queryCount-1)]
				in1, in2 := bf1.testHash(h), bf2.testHash(h) // both answers, as Query gives
				if in1 && in2 {
					both++
				}
			}
			reportPerKey(b, 1)
		})
		b.Run(prefix+"/shbf-a", func(b *testing.B) {
			var clear int
			for i := 0; b.Loop(); i++ {
				if a.QueryHash(qs[i&(queryCount-1)]).Clear() {
					clear++
				}
			}
			reportPerKey(b, 1)
		})
	}
}

// BenchmarkMultiplicityCount compares ShBF_x (counts up to 57) with a
// counting Bloom filter of 8-bit counters at the same n and k, querying
// members.
func BenchmarkMultiplicityCount(b *testing.B) {
	for _, n := range benchSizes {
		x, err := NewMultiplicity(n, 0.01, MaxCount)
		if err != nil {
			b.Fatal(err)
		}
		cb := newBaselineCounting(x.M(), x.K())
		r := rand.New(rand.NewPCG(1, 1))
		for i := range n {
			h := engine.HashUint64(memberBase + i)
			c := 1 + r.Uint32N(MaxCount)
			_ = x.AddHash(h, c)
			cb.addHash(h, c)
		}
		qs := benchHashes(n, true)
		prefix := fmt.Sprintf("n=%.0e", float64(n))
		b.Run(prefix+"/counting-bloom", func(b *testing.B) {
			var sum uint32
			for i := 0; b.Loop(); i++ {
				sum += cb.countHash(qs[i&(queryCount-1)])
			}
			reportPerKey(b, 1)
		})
		b.Run(prefix+"/shbf-x", func(b *testing.B) {
			var sum uint32
			for i := 0; b.Loop(); i++ {
				sum += x.CountHash(qs[i&(queryCount-1)])
			}
			reportPerKey(b, 1)
		})
	}
}
