package experiment

import (
	"context"
	"math"
	"testing"

	"github.com/filterengine/filterengine/formats/clickhouse"
)

// Experiment g's ClickHouse part gives each index a build pair and a test
// pair whose two implementations agree (equal bytes, the same granules
// kept), skips no granule that holds its token, and keeps about as many
// granules for absent values as the index's false-positive rate allows.
func TestFormatsClickHouse(t *testing.T) {
	c := smallConfig(t, "g")
	d := &driver{ctx: context.Background(), batch: c.Batch, prog: c.Progress}
	var r Results
	if err := runFormatsClickHouse(d, &c, &r); err != nil {
		t.Fatal(err)
	}
	if want := 4 * len(clickHouseIndexes); len(r.FormatsClickHouse) != want {
		t.Fatalf("%d rows, want %d", len(r.FormatsClickHouse), want)
	}
	for i, row := range r.FormatsClickHouse {
		batch := i%2 == 0
		if !row.SameBytes || row.Missed != 0 || !(row.NsPerToken > 0) || batch != !math.IsNaN(row.Ratio) || batch != (row.Peer != "") {
			t.Errorf("%+v", row)
		}
		ix, err := clickhouse.ParseIndex(row.Index)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case row.Op == "build" && ix.Kind() == clickhouse.BloomFilterIndex:
			// VarUInt(8192) then 8192 values' bits.
			if want := 2 + ix.BitsPerValue()*clickHouseBuildRows/8; row.Bytes != want || row.Tokens != clickHouseBuildRows {
				t.Errorf("%s build: %d bytes, %d values, want %d and %d", row.Index, row.Bytes, row.Tokens, want, clickHouseBuildRows)
			}
		case row.Op == "build":
			if row.Bytes != ix.SizeBytes() || row.Tokens < 2*clickHouseBuildRows {
				t.Errorf("%s build: %d bytes, %d tokens", row.Index, row.Bytes, row.Tokens)
			}
		case ix.Kind() == clickhouse.BloomFilterIndex:
			// Half the values are held by one granule each; the other
			// asks are absent and kept at the index's FPR (0.01).
			held, asked := clickHouseQueries/2, clickHouseQueries*clickHouseGranules
			if row.Kept < held || row.Kept > held+asked*3/100 {
				t.Errorf("%s test kept %d granules of %d asks", row.Index, row.Kept, asked)
			}
		default:
			if row.Kept == 0 || row.Kept == clickHouseQueries*clickHouseGranules {
				t.Errorf("%s test kept %d granules", row.Index, row.Kept)
			}
		}
	}
}
