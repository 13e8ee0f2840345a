package main

import (
	"slices"
	"strings"

	"github.com/filterengine/filterengine/bench/experiment"
)

// optionalExperiments run only when -experiments names them: "all" (the
// default) leaves them out. g measures the formats other engines read.
var optionalExperiments = []string{"g"}

// parseExperiments is experiment.ParseExperiments plus the optional
// experiments named in list.
func parseExperiments(list string) (map[string]bool, error) {
	var rest []string
	named := map[string]bool{}
	for _, n := range strings.Split(list, ",") {
		switch n = strings.TrimSpace(n); {
		case slices.Contains(optionalExperiments, n):
			named[n] = true
		case n != "":
			rest = append(rest, n)
		}
	}
	if len(named) > 0 && len(rest) == 0 {
		return named, nil
	}
	out, err := experiment.ParseExperiments(strings.Join(rest, ","))
	if err != nil {
		return nil, err
	}
	for n := range named {
		out[n] = true
	}
	return out, nil
}
