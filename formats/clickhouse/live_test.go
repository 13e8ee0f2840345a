package clickhouse

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// TestLive compares this package with what a real ClickHouse wrote and
// answered in the folder CLICKHOUSE_LIVE_DIR (written by interop/live.js;
// `make interop-clickhouse` runs both). Without the variable it skips.
func TestLive(t *testing.T) {
	dir := os.Getenv("CLICKHOUSE_LIVE_DIR")
	if dir == "" {
		t.Skip("CLICKHOUSE_LIVE_DIR not set: run `make interop-clickhouse`")
	}
	var m struct {
		manifest
		Seed    int64      `json:"seed"`
		City    [][]string `json:"city"`
		IntHash [][]string `json:"inthash"`
		Queries []struct {
			Table  string   `json:"table"`
			Index  string   `json:"index"`
			Kind   string   `json:"kind"`
			Values []string `json:"values"`
			Cond   string   `json:"cond"`
			Kept   []int    `json:"kept"`
		} `json:"queries"`
	}
	readJSON(t, filepath.Join(dir, "manifest.json"), &m)
	t.Logf("ClickHouse %s, seed %d", m.ClickHouse, m.Seed)

	// Hash functions against SQL cityHash64 and intHash64.
	for _, c := range m.City {
		if got := CityHash64(mustHex(t, c[0])); strconv.FormatUint(got, 10) != c[1] {
			t.Errorf("CityHash64(%s) = %d, SQL cityHash64 = %s", c[0], got, c[1])
		}
	}
	for _, c := range m.IntHash {
		if got := SQLIntHash64(mustU64(t, c[0])); strconv.FormatUint(got, 10) != c[1] {
			t.Errorf("SQLIntHash64(%s) = %d, SQL intHash64 = %s", c[0], got, c[1])
		}
	}

	// Every granule of every index, byte for byte.
	specs := map[string]indexSpec{}
	indexes := map[string]*Index{}
	for _, s := range m.Indexes {
		specs[s.Name] = s
		ix, err := ParseIndex(s.Type)
		if err != nil {
			t.Fatal(err)
		}
		indexes[s.Name] = ix
	}
	files := map[string][]*Granule{} // table/index -> granules read
	granules := 0
	for _, tb := range m.Tables {
		var rows []row
		readJSON(t, filepath.Join(dir, tb.Name, "rows.json"), &rows)
		for _, s := range m.Indexes {
			ix := indexes[s.Name]
			got, err := ix.ReadGranulesFile(filepath.Join(dir, tb.Name, "skp_idx_"+s.Name+".idx"), len(s.Columns))
			if err != nil {
				t.Fatalf("%s/%s: %v", tb.Name, s.Name, err)
			}
			granules += compareGranules(t, tb.Name+"/"+s.Name, got, buildGranules(t, ix, s, rows, tb.Granule))
			files[tb.Name+"/"+s.Name] = got
		}
	}

	// The granules each condition keeps, against ClickHouse's analysis.
	for qi, q := range m.Queries {
		s, ix, gs := specs[q.Index], indexes[q.Index], files[q.Table+"/"+q.Index]
		colName := map[string]string{"hasToken": "s", "eq_s": "s", "in_s": "s", "has_a": "a",
			"eq_u": "u", "in_u": "u", "eq_i": "i", "eq_f32": "f32", "eq_f64": "f64"}[q.Kind]
		col := slices.Index(s.Columns, colName)
		if col < 0 {
			t.Fatalf("query %d: index %s has no column %s", qi, q.Index, colName)
		}
		var probes []Probe
		for _, v := range q.Values {
			switch q.Kind {
			case "hasToken":
				probes = append(probes, ix.ProbeToken(col, mustHex(t, v)))
			case "eq_s", "in_s", "has_a":
				probes = append(probes, ix.ProbeString(col, mustHex(t, v)))
			case "eq_u", "in_u":
				probes = append(probes, ix.ProbeUint64(col, mustU64(t, v)))
			case "eq_i":
				n, err := strconv.ParseInt(v, 10, 32)
				if err != nil {
					t.Fatal(err)
				}
				probes = append(probes, ix.ProbeInt32(col, int32(n)))
			case "eq_f32":
				probes = append(probes, ix.ProbeFloat32(col, math.Float32frombits(uint32(mustU64(t, v)))))
			case "eq_f64":
				probes = append(probes, ix.ProbeFloat64(col, math.Float64frombits(mustU64(t, v))))
			}
		}
		out := make([]bool, len(gs))
		SelectAny(gs, probes, out)
		var ours []int
		for i, ok := range out {
			if ok {
				ours = append(ours, i)
			}
		}
		if !slices.Equal(ours, q.Kept) && !(len(ours) == 0 && len(q.Kept) == 0) {
			t.Errorf("query %d on %s, index %s: %s\nClickHouse keeps %v\nwe keep         %v", qi, q.Table, q.Index, q.Cond, q.Kept, ours)
		}
	}
	t.Logf("live: %d granules byte-identical; %d cityHash64 and %d intHash64 inputs equal; %d conditions keep the same granules",
		granules, len(m.City), len(m.IntHash), len(m.Queries))
}
