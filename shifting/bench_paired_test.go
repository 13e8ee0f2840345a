package shifting

import (
	"fmt"
	"testing"
	"time"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
)

// BenchmarkMembershipPaired times the standard Bloom baseline and scalar
// ShBF_M on the same blocks of 4096 queries (two different arrays, so
// neither warms the other's lines), and the batch kernel on another block,
// alternating, so all three see the same interference from other
// processes on a shared machine; it reports each one's ns/key and the ratios. Geometry
// as BenchmarkMembershipTest: m/n = 10, k = 10.
func BenchmarkMembershipPaired(b *testing.B) {
	const bitsPerKey, k, block = 10, 10, 4096
	for _, n := range benchSizes {
		f, err := NewMK(bitsPerKey*n, k)
		if err != nil {
			b.Fatal(err)
		}
		base := newBaselineBloom(bitsPerKey*n, k)
		ks := members(memberBase, n)
		f.AddUint64s(ks)
		for _, key := range ks {
			base.addHash(engine.HashUint64(key))
		}
		for _, present := range []bool{true, false} {
			qs := benchHashes(n, present)
			kind := map[bool]string{true: "present", false: "absent"}[present]
			b.Run(fmt.Sprintf("n=%.0e/%s/kernel=%s", float64(n), kind, asm.Kernel()), func(b *testing.B) {
				out := make([]bool, block)
				var tClassic, tScalar, tBatch time.Duration
				hits := 0
				blocks := 0
				for i := 0; b.Loop(); i++ {
					q := qs[(i*block)&(queryCount-1):][:block]
					t0 := time.Now()
					for _, h := range q {
						if base.testHash(h) {
							hits++
						}
					}
					t1 := time.Now()
					for _, h := range q {
						if f.TestHash(h) {
							hits++
						}
					}
					t2 := time.Now()
					// The batch takes queries half the ring away, so it does not
					// find the lines the scalar pass just loaded.
					hits += f.TestHashes(qs[(i*block+queryCount/2)&(queryCount-1):][:block], out)
					t3 := time.Now()
					tClassic += t1.Sub(t0)
					tScalar += t2.Sub(t1)
					tBatch += t3.Sub(t2)
					blocks++
				}
				keys := float64(blocks * block)
				b.ReportMetric(float64(tClassic.Nanoseconds())/keys, "classic-ns/key")
				b.ReportMetric(float64(tScalar.Nanoseconds())/keys, "shbf-ns/key")
				b.ReportMetric(float64(tBatch.Nanoseconds())/keys, "batch-ns/key")
				b.ReportMetric(float64(tScalar)/float64(tClassic), "shbf/classic")
				b.ReportMetric(float64(tBatch)/float64(tClassic), "batch/classic")
			})
		}
	}
}
