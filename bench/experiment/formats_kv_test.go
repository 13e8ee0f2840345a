package experiment

import (
	"context"
	"testing"
)

func TestFormatsKV(t *testing.T) {
	all, err := ParseExperiments("all")
	if err != nil || !all["g"] {
		t.Errorf("'all' = %v, %v; make bench must measure the formats", all, err)
	}
	r, err := Run(context.Background(), smallConfig(t, "g"))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.FormatsKV) != 4 || len(r.FormatsParquet) == 0 || len(r.Stream)+len(r.Sized)+len(r.Kernels)+len(r.Sets) != 0 {
		t.Fatalf("-experiments g ran %d LevelDB/Pebble rows (want 4), %d Parquet rows, or other experiments", len(r.FormatsKV), len(r.FormatsParquet))
	}
	for _, row := range r.FormatsKV {
		if !row.SameBytes || row.FalseNegatives != 0 || !(row.FPR > 0.001 && row.FPR < 0.03) {
			t.Errorf("%s %s: same bytes %v, %d false negatives, FPR %v", row.Format, row.Impl, row.SameBytes, row.FalseNegatives, row.FPR)
		}
		if !(row.BuildNs > 0 && row.MemberNs > 0 && row.AbsentNs > 0) {
			t.Errorf("%s %s: timings %v %v %v", row.Format, row.Impl, row.BuildNs, row.MemberNs, row.AbsentNs)
		}
	}
}
