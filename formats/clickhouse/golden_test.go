package clickhouse

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// row is one row of the test tables as the scripts write it: strings as
// hex, floats as bit patterns, integers as decimal strings.
type row struct {
	RN  string   `json:"rn"`
	S   string   `json:"s"`
	U   string   `json:"u"`
	I   string   `json:"i"`
	F32 string   `json:"f32"`
	F64 string   `json:"f64"`
	A   []string `json:"a"`
}

type indexSpec struct {
	Name    string   `json:"name"`
	Type    string   `json:"type"`
	Columns []string `json:"columns"`
}

type manifest struct {
	ClickHouse string      `json:"clickhouse"`
	Chdb       string      `json:"chdb"`
	Indexes    []indexSpec `json:"indexes"`
	Tables     []struct {
		Name    string `json:"name"`
		Rows    int    `json:"rows"`
		Granule int    `json:"granule"`
	} `json:"tables"`
}

func readJSON(t testing.TB, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func mustHex(t testing.TB, s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustU64(t testing.TB, s string) uint64 {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// addRow adds column name of r to column col of g, as ClickHouse indexes it.
func addRow(t testing.TB, g *Granule, col int, name string, r *row) {
	switch name {
	case "s":
		g.AddString(col, mustHex(t, r.S))
	case "u":
		g.AddUint64(col, mustU64(t, r.U))
	case "i":
		v, err := strconv.ParseInt(r.I, 10, 32)
		if err != nil {
			t.Fatal(err)
		}
		g.AddInt32(col, int32(v))
	case "f32":
		g.AddFloat32(col, math.Float32frombits(uint32(mustU64(t, r.F32))))
	case "f64":
		g.AddFloat64(col, math.Float64frombits(mustU64(t, r.F64)))
	case "a":
		elems := make([][]byte, len(r.A))
		for i, e := range r.A {
			elems[i] = mustHex(t, e)
		}
		g.AddStrings(col, elems)
	default:
		t.Fatalf("unknown column %q", name)
	}
}

// buildGranules builds the granules of an index over rows, granule rows each.
func buildGranules(t testing.TB, ix *Index, spec indexSpec, rows []row, granule int) []*Granule {
	var out []*Granule
	for start := 0; start < len(rows); start += granule {
		g := ix.NewGranule(len(spec.Columns))
		for r := start; r < min(start+granule, len(rows)); r++ {
			for c, name := range spec.Columns {
				addRow(t, g, c, name, &rows[r])
			}
		}
		out = append(out, g)
	}
	return out
}

// compareGranules checks that the file's granules and the built ones have
// the same bytes, granule by granule; it returns how many it compared.
func compareGranules(t testing.TB, where string, got, want []*Granule) int {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: file has %d granules, rows give %d", where, len(got), len(want))
		return 0
	}
	for i := range got {
		a, err := got[i].MarshalBinary()
		if err != nil {
			t.Fatalf("%s granule %d: %v", where, i, err)
		}
		b, err := want[i].MarshalBinary()
		if err != nil {
			t.Fatalf("%s granule %d: %v", where, i, err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s granule %d: bytes differ\nclickhouse %x\nbuilt      %x", where, i, a, b)
		}
	}
	return len(got)
}

func TestGoldenGranules(t *testing.T) {
	var m manifest
	readJSON(t, filepath.Join("testdata", "manifest.json"), &m)
	total := 0
	for _, tb := range m.Tables {
		var rows []row
		readJSON(t, filepath.Join("testdata", tb.Name, "rows.json"), &rows)
		if len(rows) != tb.Rows {
			t.Fatalf("%s: %d rows, manifest says %d", tb.Name, len(rows), tb.Rows)
		}
		for _, spec := range m.Indexes {
			ix, err := ParseIndex(spec.Type)
			if err != nil {
				t.Fatal(err)
			}
			where := tb.Name + "/" + spec.Name
			got, err := ix.ReadGranulesFile(filepath.Join("testdata", tb.Name, "skp_idx_"+spec.Name+".idx"), len(spec.Columns))
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			want := buildGranules(t, ix, spec, rows, tb.Granule)
			total += compareGranules(t, where, got, want)
			// Every value added tests present in its granule.
			for gi, g := range got {
				for r := gi * tb.Granule; r < min((gi+1)*tb.Granule, len(rows)); r++ {
					for c, name := range spec.Columns {
						if name == "s" && !g.MayContainString(c, mustHex(t, rows[r].S)) {
							t.Errorf("%s granule %d: row %d's s tests absent", where, gi, r)
						}
					}
				}
			}
		}
	}
	t.Logf("%d golden granules byte-identical (ClickHouse %s via chdb %s)", total, m.ClickHouse, m.Chdb)
	if total == 0 {
		t.Fatal("no granule compared")
	}
}
