package main

import "testing"

// ratio pairs the rounds: a round in a slow state moves both sides of
// its ratio, where the ratio of the medians mixes rounds.
func TestRatioPairsRounds(t *testing.T) {
	m := measurements{ns: map[string][]float64{
		"ours":  {2, 10, 2.2},
		"std":   {1, 5, 1},
		"huge":  {1.5, 4, 1.1},
		"short": {1, 2},
	}}
	// Rounds: 2/1, 10/4, 2.2/1.
	if got, ok := m.ratio("ours", "std", "huge"); !ok || got != 2.2 {
		t.Errorf("paired ratio = %v, %v; want 2.2", got, ok)
	}
	// Series that do not pair fall back to the ratio of the medians
	// (2.2 over 2).
	if got, ok := m.ratio("ours", "short"); !ok || got != 1.1 {
		t.Errorf("unpaired ratio = %v, %v; want 1.1", got, ok)
	}
	// A missing denominator is left out (2/1, 10/5, 2.2/1); none at all
	// is no ratio.
	if got, ok := m.ratio("ours", "std", "missing"); !ok || got != 2 {
		t.Errorf("ratio with a missing series = %v, %v; want 2", got, ok)
	}
	if _, ok := m.ratio("ours", "missing"); ok {
		t.Error("ratio without a denominator reported ok")
	}
	if _, ok := m.ratio("missing", "std"); ok {
		t.Error("ratio without a numerator reported ok")
	}
}
