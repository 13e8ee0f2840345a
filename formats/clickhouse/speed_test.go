package clickhouse

import (
	"os"
	"testing"
	"time"
)

// TestSpeedRatio prints the batch build's speed-up over the scalar
// reference, taking the fastest of many alternating runs of each so that a
// busy machine does not skew the ratio. Timing never decides a test: it
// runs only with CLICKHOUSE_SPEED=1 and only reports.
func TestSpeedRatio(t *testing.T) {
	if os.Getenv("CLICKHOUSE_SPEED") == "" {
		t.Skip("set CLICKHOUSE_SPEED=1 to measure")
	}
	rows, tokens := benchRows(8192, 1)
	for _, typ := range []string{"tokenbf_v1(10240, 3, 0)", "ngrambf_v1(3, 10240, 3, 0)", "tokenbf_v1(8192, 4, 0)"} {
		ix, _ := ParseIndex(typ)
		per := tokens
		if ix.kind == NgramBF {
			per = countNgrams(rows, ix.n)
		}
		g := ix.NewGranule(1)
		best := [2]time.Duration{1 << 62, 1 << 62}
		for range 40 {
			t0 := time.Now()
			refTextGranule(ix, rows)
			best[0] = min(best[0], time.Since(t0))
			t0 = time.Now()
			g.filters[0].Reset()
			g.AddStrings(0, rows)
			best[1] = min(best[1], time.Since(t0))
		}
		t.Logf("%-28s scalar %6.2f ns/token, batch %6.2f ns/token, %.2fx", typ,
			float64(best[0].Nanoseconds())/float64(per), float64(best[1].Nanoseconds())/float64(per),
			float64(best[0])/float64(best[1]))
	}
	ix, _ := ParseIndex("bloom_filter(0.01)")
	vals, hs := benchValues(8192)
	best := [2]time.Duration{1 << 62, 1 << 62}
	for range 40 {
		t0 := time.Now()
		for i, v := range vals {
			hs[i] = IntHash64(v)
		}
		refBloomFilterGranule(ix, hs)
		best[0] = min(best[0], time.Since(t0))
		t0 = time.Now()
		g := ix.NewGranule(1)
		g.AddUint64s(0, vals)
		g.build()
		best[1] = min(best[1], time.Since(t0))
	}
	t.Logf("%-28s scalar %6.2f ns/value, batch %6.2f ns/value, %.2fx", ix,
		float64(best[0].Nanoseconds())/float64(len(vals)), float64(best[1].Nanoseconds())/float64(len(vals)),
		float64(best[0])/float64(best[1]))
}
