package experiment

import (
	"context"
	"testing"
)

// Experiment s measures every filter in both call forms, and none loses a
// member.
func TestGrowth(t *testing.T) {
	c := smallConfig(t, "s")
	c.GrowthN = 30_000
	r, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	// scalable: two of ours and the single filter, batch + per key, boom
	// per key; window at two generation sizes: ours and single, batch +
	// per key.
	if len(r.Growth) != 15 {
		t.Fatalf("%d rows: %+v", len(r.Growth), r.Growth)
	}
	for _, g := range r.Growth {
		if g.FalseNegatives != 0 || !(g.Ns > 0) || g.Queried != c.SizedProbes {
			t.Errorf("%+v", g)
		}
		if g.Filter == "blocked.Scalable(1e3, 1%)" && (g.Parts < 5 || g.FPR > 0.02) {
			t.Errorf("scalable after 30000 keys: %+v", g)
		}
	}
}
