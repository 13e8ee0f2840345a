// Package fprstat is the statistics the tests and the bench command use
// to compare a measured false-positive count with a model's rate. It is
// internal: users of the library need the models (each family's
// ModelFPR), not the test bounds.
package fprstat

import "math"

// Z999 is the two-sided 99.9% quantile of the standard normal distribution.
const Z999 = 3.2905267314919255

// BinomialBounds returns the range [lo, hi] that a Binomial(trials, p)
// count falls in with two-sided confidence given by z (Z999 for 99.9%):
// the normal approximation trials*p ± z*sd, widened by one for continuity.
func BinomialBounds(trials uint64, p, z float64) (lo, hi float64) {
	mean := float64(trials) * p
	sd := math.Sqrt(mean * (1 - p))
	return max(0, mean-z*sd-1), mean + z*sd + 1
}
