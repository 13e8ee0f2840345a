package experiment

import (
	"context"
	"testing"
)

// Experiment r: every scheme removes every recorded false positive, the
// exact false-negative count agrees with testing every key, MinimumFN and
// Ratio lose fewer keys than Random, and Dynamic finds every member.
func TestRetouchedExperiment(t *testing.T) {
	r, err := Run(context.Background(), smallConfig(t, "r"))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Retouched) != 4 || len(r.Dynamic) != 2 {
		t.Fatalf("%d retouched rows, %d dynamic rows", len(r.Retouched), len(r.Dynamic))
	}
	fn := map[string]uint64{}
	for _, x := range r.Retouched {
		if x.RemovedFPs != RetouchedFPs || x.FalseNegatives != uint64(x.FNCheck) || x.FPRAfter >= x.FPRBefore || x.ClearNs <= 0 {
			t.Errorf("implausible row %+v", x)
		}
		fn[x.Scheme] = x.FalseNegatives
	}
	if fn["MinimumFN"] >= fn["Random"] || fn["Ratio"] >= fn["Random"] {
		t.Errorf("false negatives %v: MinimumFN and Ratio not below Random", fn)
	}
	for _, x := range r.Dynamic {
		if x.Rows != DynamicRows || x.DynamicNs <= 0 || x.RowsNs <= 0 {
			t.Errorf("implausible row %+v", x)
		}
		if x.Keys == KeysMembers && x.Hits != 20_000 {
			t.Errorf("Dynamic found %d of 20000 members", x.Hits)
		}
	}
}
