//go:build !race

package conformance_test

const raceEnabled = false
