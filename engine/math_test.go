package engine

import (
	"errors"
	"math"
	"testing"
)

func near(a, b, rel float64) bool { return math.Abs(a-b) <= rel*math.Abs(b) }

func TestSizing(t *testing.T) {
	// -ln(0.01)/ln(2)^2 = 9.585 bits per key; k = 9.585 ln 2 = 6.64 -> 7.
	m, err := OptimalBits(1_000_000, 0.01)
	if err != nil || m != 9585059 {
		t.Fatalf("OptimalBits(1e6, 1%%) = %d, %v; want 9585059", m, err)
	}
	if k := OptimalK(m, 1_000_000); k != 7 {
		t.Errorf("OptimalK = %d, want 7", k)
	}
	// At the optimum the FPR is the target.
	for _, p := range []float64{0.1, 0.01, 0.001, 1e-6} {
		m := OptimalBitsFloat(1e6, p)
		k := m / 1e6 * math.Ln2
		got := math.Pow(-math.Expm1(-k*1e6/m), k)
		if !near(got, p, 1e-3) {
			t.Errorf("p=%v: FPR at the optimum %v", p, got)
		}
	}
}

func TestFPRModels(t *testing.T) {
	// Exact and approximate agree for large m and differ for tiny m.
	if a, b := FPR(1e7, 1e6, 7), math.Pow(-math.Expm1(-0.7), 7); !near(a, b, 1e-5) {
		t.Errorf("FPR %v vs (1-e^(-kn/m))^k %v at m=1e7", a, b)
	}
	// m = 2, n = 1, k = 1: the one bit set is hit with probability 1/2.
	if got := FPR(2, 1, 1); !near(got, 0.5, 1e-12) {
		t.Errorf("FPR(2,1,1) = %v, want 0.5", got)
	}
	// m = 4, n = 2, k = 1: 1-(3/4)^2 = 7/16.
	if got := FPR(4, 2, 1); !near(got, 7.0/16, 1e-12) {
		t.Errorf("FPR(4,2,1) = %v, want 7/16", got)
	}
	if FPR(0, 1, 1) != 1 {
		t.Error("FPR of an empty array is not 1")
	}
	// No key: no false positive, also for one bit (log1p(-1) = -Inf
	// times 0 keys was NaN).
	for _, m := range []uint64{1, 2, 64, 1e9} {
		if got := FPR(m, 0, 3); got != 0 {
			t.Errorf("FPR(%d, 0, 3) = %v, want 0", m, got)
		}
	}
}

func TestFillAndCount(t *testing.T) {
	if got := FPRFromFill(0.5, 3); got != 0.125 {
		t.Errorf("FPRFromFill(0.5, 3) = %v", got)
	}
	// The expected number of set bits after n keys inverts to n.
	const m, n, k = 1e6, 1e5, 7
	x := m * -math.Expm1(k*n*math.Log1p(-1/m))
	if got := EstimateCount(m, k, uint64(math.Round(x))); !near(got, n, 1e-3) {
		t.Errorf("EstimateCount = %v, want ~%v", got, n)
	}
	if !math.IsInf(EstimateCount(100, 3, 100), 1) {
		t.Error("a full array should estimate +Inf")
	}
}

// OptimalK stays in [1, MaxK] at the edges, where m/n is 0, infinite or
// undefined.
func TestOptimalKEdges(t *testing.T) {
	cases := []struct {
		m, n uint64
		want uint32
	}{{0, 0, 1}, {0, 5, 1}, {1, 0, MaxK}, {1, 1e9, 1}, {math.MaxUint64, 1, MaxK}, {10, 1, 7}}
	for _, c := range cases {
		if got := OptimalK(c.m, c.n); got != c.want {
			t.Errorf("OptimalK(%d, %d) = %d, want %d", c.m, c.n, got, c.want)
		}
	}
}

func TestOptimalBitsOverflow(t *testing.T) {
	if _, err := OptimalBits(math.MaxUint64, 1e-9); !errors.Is(err, ErrParam) {
		t.Errorf("OptimalBits overflow: err = %v", err)
	}
	if _, err := OptimalBits(0, 0.01); !errors.Is(err, ErrParam) {
		t.Errorf("OptimalBits(0 keys): err = %v", err)
	}
}
