package experiment

import (
	"context"
	"math"
	"testing"

	"github.com/filterengine/filterengine/internal/cpulevel"
)

// A small run of experiment g's Parquet half: one row per implementation
// and level, identical bits and hits everywhere, ratios against the peer.
func TestFormatsParquetShapes(t *testing.T) {
	c := smallConfig(t, "a")
	c.Experiments = map[string]bool{"g": true}
	r, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	levels := len(cpulevel.Available())
	if want := 2*levels + 6; len(r.FormatsParquet) != want {
		t.Fatalf("%d rows, want %d", len(r.FormatsParquet), want)
	}
	hits := -1
	for _, row := range r.FormatsParquet {
		if !row.SameBits {
			t.Errorf("bits differ from arrow's: %+v", row)
		}
		if row.NsPerKey <= 0 || row.Bytes != 16384 || row.N != 10_000 {
			t.Errorf("implausible row %+v", row)
		}
		if (row.Peer == "") != math.IsNaN(row.Ratio) {
			t.Errorf("ratio without peer or peer without ratio: %+v", row)
		}
		if row.Op == "test" {
			if hits >= 0 && row.Hits != hits {
				t.Errorf("%s %s: %d hits, others %d", row.Impl, row.Level, row.Hits, hits)
			}
			hits = row.Hits
		}
	}
	if hits < 10_000 || hits > 10_000+2_000 {
		t.Errorf("%d hits over 10000 members and 10000 absent values", hits)
	}
}
