package spatial

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/fprstat"
)

// hashFor returns a hash whose two probes in an 8-cell filter are cells p0
// and p1: the top three bits of h and of h + rotl(h, 32).
func hashFor(p0, p1 uint64) uint64 { return p0<<61 | (p1-p0)&7<<29 }

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// TestStatsHand builds an 8-cell, k = 2 filter whose every probe is known
// and compares each statistic with figures worked out by hand (fractions
// of q = 7/8, evaluated exactly). Keys go to areas 1 to 3 only; the filter
// has 3 areas (4-bit cells), 16 (8-bit) or 256 (16-bit), and the areas
// without keys change nothing in the first three nor in the filter's
// figures.
func TestStatsHand(t *testing.T) {
	for _, c := range []struct{ areas, bits int }{{3, 4}, {16, 8}, {256, 16}} {
		t.Run(strconv.Itoa(c.bits)+"-bit", func(t *testing.T) { statsHand(t, c.areas, c.bits) })
	}
}

func statsHand(t *testing.T, areas, cellBits int) {
	f, err := NewMK(8, 2, areas)
	if err != nil {
		t.Fatal(err)
	}
	if f.CellBits() != cellBits {
		t.Fatalf("%d areas: %d-bit cells, want %d", areas, f.CellBits(), cellBits)
	}
	inserts := []struct {
		p0, p1 uint64
		area   int
	}{
		{0, 1, 1}, // A: cells 0, 1 <- 1
		{1, 2, 1}, // B: cell 1 self-collision, cell 2 <- 1
		{2, 3, 2}, // C: cell 2 1 -> 2 (collision), cell 3 <- 2
		{3, 3, 3}, // D: cell 3 2 -> 3 (collision), then 3 again (self-collision)
	}
	for _, in := range inserts {
		h := hashFor(in.p0, in.p1)
		var ps [engine.MaxK]uint64
		if p := f.probes(h, &ps); p[0] != in.p0 || p[1] != in.p1 {
			t.Fatalf("hashFor(%d, %d) probes %d, %d", in.p0, in.p1, p[0], p[1])
		}
		if err := f.InsertHash(h, in.area); err != nil {
			t.Fatal(err)
		}
	}
	want := packCells([]uint16{1, 1, 2, 3, 0, 0, 0, 0}, f.p.CellLog)
	if got := f.cells[:len(want)]; string(got) != string(want) {
		t.Fatalf("cells % x, want % x", got, want)
	}
	for _, c := range []struct {
		p0, p1 uint64
		want   int
	}{{0, 1, 1}, {1, 2, 1}, {2, 3, 2}, {3, 3, 3}, {0, 3, 1}, {2, 2, 2}, {3, 4, 0}} {
		if got := f.CheckHash(hashFor(c.p0, c.p1)); got != c.want {
			t.Errorf("CheckHash(cells %d, %d) = %d, want %d", c.p0, c.p1, got, c.want)
		}
	}

	s := f.Stats()
	// Filter: 4 of 8 cells set; a priori z(4 keys) = (7/8)^8.
	if s.Members != 4 || s.Collisions != 4 || s.NonZero != 4 || s.Sparsity != 0.5 || s.FPR != 0.25 || s.CellBits != cellBits || len(s.Area) != areas {
		t.Errorf("filter stats %+v", s)
	}
	if !near(s.FPRAPriori, 0.4308492554096155) || !near(s.Safeness, 0.6491048908686142) {
		t.Errorf("a-priori FPR %v, safeness %v", s.FPRAPriori, s.Safeness)
	}
	wantAreas := []AreaStats{
		// Area 1: 2 cells of 2*2-1 written; FPR (4/8)^2-(2/8)^2; a priori
		// isep (1-z(2))^2 with z(2) = (7/8)^4.
		{Area: 1, Members: 2, Cells: 2, SelfCollisions: 1, Emersion: 2.0 / 3, ISEP: 1.0 / 9, FPR: 0.1875,
			ExpectedCells: 1.9405817985534668, ExpectedEmersion: 0.586181640625,
			FPRAPriori: 0.25960362085379884, ISEPAPriori: 0.17124563455581665, Safeness: 0.686833798242791},
		// Area 2: 1 cell of 2 written; FPR (2/8)^2-(1/8)^2; z(1) = (7/8)^2.
		{Area: 2, Members: 1, Cells: 1, SelfCollisions: 0, Emersion: 0.5, ISEP: 0.25, FPR: 0.046875,
			ExpectedCells: 1.435546875, ExpectedEmersion: 0.765625,
			FPRAPriori: 0.11631399393081665, ISEPAPriori: 0.054931640625, Safeness: 0.945068359375},
		// Area 3: 1 cell of 2-1 written, nothing above it.
		{Area: 3, Members: 1, Cells: 1, SelfCollisions: 1, Emersion: 1, ISEP: 0, FPR: 0.015625,
			ExpectedCells: 1.875, ExpectedEmersion: 1,
			FPRAPriori: 0.054931640625, ISEPAPriori: 0, Safeness: 1},
	}
	for i, w := range wantAreas {
		g := s.Area[i]
		if g.Area != w.Area || g.Members != w.Members || g.Cells != w.Cells || g.SelfCollisions != w.SelfCollisions {
			t.Errorf("area %d counts %+v, want %+v", w.Area, g, w)
		}
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"Emersion", g.Emersion, w.Emersion}, {"ISEP", g.ISEP, w.ISEP}, {"FPR", g.FPR, w.FPR},
			{"ExpectedCells", g.ExpectedCells, w.ExpectedCells}, {"ExpectedEmersion", g.ExpectedEmersion, w.ExpectedEmersion},
			{"FPRAPriori", g.FPRAPriori, w.FPRAPriori}, {"ISEPAPriori", g.ISEPAPriori, w.ISEPAPriori}, {"Safeness", g.Safeness, w.Safeness},
		} {
			if !near(c.got, c.want) {
				t.Errorf("area %d %s = %v, want %v", w.Area, c.name, c.got, c.want)
			}
		}
	}
	// Areas without keys: nothing in them, nothing above them.
	for _, g := range s.Area[3:] {
		if g.Members != 0 || g.Cells != 0 || g.FPR != 0 || g.FPRAPriori != 0 || g.ExpectedCells != 0 ||
			g.ExpectedEmersion != 1 || g.ISEPAPriori != 0 || g.Safeness != 1 || !math.IsNaN(g.Emersion) {
			t.Errorf("empty area %+v", g)
		}
	}

	summary := summaryOf(t, f)
	for _, line := range []string{
		"8 cells of " + strconv.Itoa(cellBits) + " bits, k = 2, " + strconv.Itoa(areas) + " areas",
		"members 4, collisions 4, non-empty cells 4, sparsity 0.500000",
	} {
		if !strings.Contains(summary, line) {
			t.Errorf("summary lacks %q:\n%s", line, summary)
		}
	}
	if n := strings.Count(summary, "\n"); n != 4+areas {
		t.Errorf("summary has %d lines, want %d:\n%s", n, 4+areas, summary)
	}
}

func TestStatsEmptyArea(t *testing.T) {
	f := mustNew(t, 100, 3, 0.01)
	_ = f.Insert([]byte("a"), 2)
	s := f.Stats()
	if !math.IsNaN(s.Area[0].Emersion) || !math.IsNaN(s.Area[0].ISEP) || s.Area[0].Safeness != 1 {
		t.Errorf("area without members: %+v", s.Area[0])
	}
	if summary := summaryOf(t, f); !strings.Contains(summary, " - ") {
		t.Errorf("summary does not mark the undefined emersion:\n%s", summary)
	}
}

// TestAreaModel is the 10-area workload: 20000 keys per area in a filter
// sized for 1%, with its own 4-bit cells and again with 8-bit cells (same
// m, k and keys). On 1e6 absent keys the count checked as each area lies
// inside the 99.9% binomial bounds of both the a-priori and the
// a-posteriori area FPR, and for each area the members reported in a
// higher area lie inside the bounds of the a-priori inter-set error and
// of its a-posteriori estimate (1 - emersion)^k. The two widths answer
// every query alike.
func TestAreaModel(t *testing.T) {
	const areas, perArea, absent = 10, 20000, 1_000_000
	m, k, err := sizeFor(areas*perArea, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	_, absentKs := keysOf(1000, absent)
	var answers [][]uint16
	for _, cellLog := range []uint{cellLogFor(areas), 3} {
		f, err := newFilter(m, k, areas, cellLog, 0, 0, engine.HugePagesAuto)
		if err != nil {
			t.Fatal(err)
		}
		for area := 1; area <= areas; area++ {
			_, ks := keysOf(uint64(area), perArea)
			if err := f.InsertUint64s(ks, area); err != nil {
				t.Fatal(err)
			}
		}
		out := make([]uint16, absent+areas*perArea)
		f.CheckUint64s(absentKs, out[:absent])
		for area := 1; area <= areas; area++ {
			_, ks := keysOf(uint64(area), perArea)
			f.CheckUint64s(ks, out[absent+(area-1)*perArea:absent+area*perArea])
		}
		checkAreaModel(t, f, out[:absent], out[absent:], perArea)
		answers = append(answers, out)
	}
	if !slices.Equal(answers[0], answers[1]) {
		t.Error("4-bit and 8-bit cells answer the same workload differently")
	}
}

// checkAreaModel tests TestAreaModel's bounds on the answers for absent
// keys and for the members of each area in turn.
func checkAreaModel(t *testing.T, f *Filter, absent, members []uint16, perArea int) {
	t.Helper()
	s := f.Stats()
	perLabel := make([]uint64, f.Areas()+1)
	var aboveOwn []uint64
	for _, v := range absent {
		perLabel[v]++
	}
	trials := uint64(len(absent))
	inside := func(what string, count, trials uint64, p float64) {
		lo, hi := fprstat.BinomialBounds(trials, p, fprstat.Z999)
		if float64(count) < lo || float64(count) > hi {
			t.Errorf("%d-bit cells, %s: %d of %d, model %.4g expects [%.1f, %.1f]", f.CellBits(), what, count, trials, p, lo, hi)
		}
	}
	positives := trials - perLabel[0]
	inside("filter FPR a priori", positives, trials, s.FPRAPriori)
	inside("filter FPR a posteriori", positives, trials, s.FPR)
	for _, a := range s.Area {
		inside("FPR a priori of area "+strconv.Itoa(a.Area), perLabel[a.Area], trials, a.FPRAPriori)
		inside("FPR a posteriori of area "+strconv.Itoa(a.Area), perLabel[a.Area], trials, a.FPR)

		var above uint64
		for _, v := range members[(a.Area-1)*perArea : a.Area*perArea] {
			if int(v) > a.Area {
				above++
			}
		}
		aboveOwn = append(aboveOwn, above)
		inside("inter-set error a priori of area "+strconv.Itoa(a.Area), above, uint64(perArea), a.ISEPAPriori)
		inside("inter-set error a posteriori of area "+strconv.Itoa(a.Area), above, uint64(perArea), a.ISEP)
		if math.Abs(float64(a.Cells)-a.ExpectedCells) > 5*math.Sqrt(a.ExpectedCells)+1 {
			t.Errorf("%d-bit cells, area %d: %d cells, model expects %.1f", f.CellBits(), a.Area, a.Cells, a.ExpectedCells)
		}
	}
	if testing.Verbose() {
		_ = s.WriteSummary(testWriter{t})
		t.Logf("absent keys per label: %v; members above their area: %v", perLabel, aboveOwn)
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) { w.t.Log(string(p)); return len(p), nil }

// TestAreaModelLineLocal is TestAreaModel's workload and bounds on the
// line-local layout, sized by its own model (sizeForLineLocal): 10 areas in
// 4-bit cells, and 20 areas of 10000 keys in 8-bit cells.
func TestAreaModelLineLocal(t *testing.T) {
	const absent = 1_000_000
	_, absentKs := keysOf(1000, absent)
	for _, c := range []struct{ areas, perArea int }{{10, 20000}, {20, 10000}} {
		f, err := New(uint64(c.areas*c.perArea), c.areas, 0.01, WithLineLocal())
		if err != nil {
			t.Fatal(err)
		}
		if !f.LineLocal() || f.M()%asm.SpatialLineCells(f.p.CellLog) != 0 {
			t.Fatalf("%d areas: line-local %v, %d cells", c.areas, f.LineLocal(), f.M())
		}
		if p := f.ModelFPR(uint64(c.areas * c.perArea)); p > 0.01 {
			t.Errorf("%d areas: sized for 1%%, model FPR %v", c.areas, p)
		}
		for area := 1; area <= c.areas; area++ {
			_, ks := keysOf(uint64(area), c.perArea)
			if err := f.InsertUint64s(ks, area); err != nil {
				t.Fatal(err)
			}
		}
		out := make([]uint16, absent+c.areas*c.perArea)
		f.CheckUint64s(absentKs, out[:absent])
		for area := 1; area <= c.areas; area++ {
			_, ks := keysOf(uint64(area), c.perArea)
			f.CheckUint64s(ks, out[absent+(area-1)*c.perArea:absent+area*c.perArea])
		}
		checkAreaModel(t, f, out[:absent], out[absent:], c.perArea)
		t.Logf("%d areas, %d-bit cells: m = %d (%.2f bits per key), k = %d, model FPR %.5f, measured %.5f",
			c.areas, f.CellBits(), f.M(), float64(f.M()*uint64(f.CellBits()))/float64(c.areas*c.perArea), f.K(),
			f.ModelFPR(uint64(c.areas*c.perArea)), float64(absent-uint64(countZero(out[:absent])))/absent)
	}
}

func countZero(out []uint16) int {
	n := 0
	for _, v := range out {
		if v == 0 {
			n++
		}
	}
	return n
}

// summaryOf is f's Stats().WriteSummary table.
func summaryOf(t *testing.T, f *Filter) string {
	t.Helper()
	var sb strings.Builder
	if err := f.Stats().WriteSummary(&sb); err != nil {
		t.Fatal(err)
	}
	return sb.String()
}

// String is one line of at most 200 bytes at the largest parameters.
func TestStringOneLine(t *testing.T) {
	f := &Filter{p: asm.SpatialProbe{M: MaxCells, K: engine.MaxK, CellLog: 4, Lines: MaxCells / 32}, areas: MaxAreas}
	if s := f.String(); len(s) > 200 || strings.Contains(s, "\n") {
		t.Errorf("String is %d bytes: %q", len(s), s)
	}
	if s := mustNew(t, 100, 3, 0.01).String(); len(s) > 200 || strings.Contains(s, "\n") {
		t.Errorf("String is %d bytes: %q", len(s), s)
	}
}
