package clickhouse

import (
	"os"
	"testing"
	"time"
)

// TestSpeedRatio prints the batch build's speed-up over the scalar
// reference for each build case, taking the fastest of many alternating
// runs of each so that a busy machine does not skew the ratio. Timing never
// decides a test: it runs only with CLICKHOUSE_SPEED=1 and only reports.
func TestSpeedRatio(t *testing.T) {
	if os.Getenv("CLICKHOUSE_SPEED") == "" {
		t.Skip("set CLICKHOUSE_SPEED=1 to measure")
	}
	for _, c := range buildCases() {
		best := [2]time.Duration{1 << 62, 1 << 62}
		for range 60 {
			for i, run := range []func(){c.ref, c.batch} {
				t0 := time.Now()
				run()
				best[i] = min(best[i], time.Since(t0))
			}
		}
		t.Logf("%-44s reference %6.2f ns/token, batch %6.2f ns/token, %.2fx", c.name,
			float64(best[0].Nanoseconds())/float64(c.per), float64(best[1].Nanoseconds())/float64(c.per),
			float64(best[0])/float64(best[1]))
	}
}
