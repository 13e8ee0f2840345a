package fprstat

import (
	"math"
	"testing"
)

func TestBinomialBounds(t *testing.T) {
	lo, hi := BinomialBounds(1_000_000, 0.01, Z999)
	// sd = sqrt(1e6 * 0.01 * 0.99) = 99.5; 3.29 sd = 327.4.
	near := func(a, b float64) bool { return math.Abs(a-b) < 0.1 }
	if !near(lo, 10000-327.4-1) || !near(hi, 10000+327.4+1) {
		t.Errorf("BinomialBounds = [%v, %v]", lo, hi)
	}
	if lo, _ := BinomialBounds(10, 0.001, Z999); lo != 0 {
		t.Errorf("lower bound %v below zero trials, want 0", lo)
	}
}
