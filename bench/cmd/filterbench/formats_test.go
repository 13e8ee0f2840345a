package main

import (
	"maps"
	"slices"
	"testing"
)

func TestParseOptionalExperiments(t *testing.T) {
	for list, want := range map[string][]string{
		"g":      {"g"},
		"a,g":    {"a", "g"},
		" g , d": {"d", "g"},
		"all":    {"a", "b", "c", "d", "f", "r", "s"},
		"":       {"a", "b", "c", "d", "f", "r", "s"},
	} {
		got, err := parseExperiments(list)
		if err != nil {
			t.Fatalf("%q: %v", list, err)
		}
		if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, want) {
			t.Errorf("%q: %v, want %v", list, keys, want)
		}
	}
	if _, err := parseExperiments("g,zz"); err == nil {
		t.Error("unknown experiment accepted beside g")
	}
}
