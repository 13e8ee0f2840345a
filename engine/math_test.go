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
		k := OptimalKFloat(uint64(m), 1e6)
		got := math.Pow(-math.Expm1(-k*1e6/m), k)
		if !near(got, p, 1e-3) {
			t.Errorf("p=%v: FPR at the optimum %v", p, got)
		}
	}
}

func TestFPRModels(t *testing.T) {
	// Exact and approximate agree for large m and differ for tiny m.
	if a, b := FPR(1e7, 1e6, 7), FPRApprox(1e7, 1e6, 7); !near(a, b, 1e-5) {
		t.Errorf("FPR %v vs FPRApprox %v at m=1e7", a, b)
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

func TestBitsPerKeyAndK(t *testing.T) {
	cases := []struct {
		p    float64
		b, k int
	}{
		// From (1-e^{-k/b})^k: b=10 reaches 0.819% at k=7 (b=9 bottoms
		// out at 1.33%), the smallest k at b=10 under 1% is 5 (0.943%).
		{0.01, 10, 5},
		{0.1, 5, 3}, // k=2 gives 10.9%, k=3 9.18%
		{0.001, 15, 8},
	}
	for _, c := range cases {
		b, k, err := BitsPerKeyAndK(c.p)
		if err != nil || b != c.b || k != c.k {
			t.Errorf("BitsPerKeyAndK(%v) = %d, %d, %v; want %d, %d", c.p, b, k, err, c.b, c.k)
		}
		if got := bitsPerKeyFPR(float64(b), k); got > c.p {
			t.Errorf("p=%v: chosen b=%d k=%d gives %v", c.p, b, k, got)
		}
		for kk := 1; kk <= MaxK; kk++ {
			if bitsPerKeyFPR(float64(b-1), kk) <= c.p {
				t.Errorf("p=%v: b-1=%d with k=%d already reaches p", c.p, b-1, kk)
			}
		}
	}
	for _, p := range []float64{0, 1, math.NaN(), 1e-30} {
		if _, _, err := BitsPerKeyAndK(p); !errors.Is(err, ErrParam) {
			t.Errorf("BitsPerKeyAndK(%v) err = %v", p, err)
		}
	}
}

func TestLevelDBK(t *testing.T) {
	for _, c := range [][2]int{{0, 1}, {1, 1}, {10, 6}, {16, 11}, {44, 30}, {100, 30}} {
		if got := LevelDBK(c[0]); got != c[1] {
			t.Errorf("LevelDBK(%d) = %d, want %d", c[0], got, c[1])
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

func TestParamChecks(t *testing.T) {
	bad := []error{
		CheckNP(0, 0.1), CheckNP(1, 0), CheckNP(1, 1), CheckNP(1, -1), CheckNP(1, math.NaN()), CheckNP(1, math.Inf(1)),
		CheckMK(0, 1, 10), CheckMK(1, 0, 10), CheckMK(1, 11, 10), CheckMK(MaxBits+1, 1, 10),
	}
	for i, err := range bad {
		if !errors.Is(err, ErrParam) {
			t.Errorf("case %d: err = %v, want ErrParam", i, err)
		}
	}
	if _, err := OptimalBits(math.MaxUint64, 1e-9); !errors.Is(err, ErrParam) {
		t.Errorf("OptimalBits overflow: err = %v", err)
	}
}
