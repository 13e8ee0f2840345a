// Package poisson averages a function over Poisson-distributed loads, the
// step every blocked layout's false-positive model takes: keys spread over
// blocks (lines, split blocks) with Poisson loads, and a block holding i
// keys answers a foreign key yes with a chance f(i).
package poisson

import "math"

// spread is the mean above which Average takes f at the
// mean: the loads spread by sqrt(lambda), under 0.1% of it, and walking
// them term by term would lose precision (and, from 2^53 on, never end).
const spread = 1e6

// Average returns sum over i of Poisson(i; lambda) f(i), walking out
// from the mode until the terms no longer matter, divided by the sum of
// the weights walked: the truncated and rounded weights then still
// average f, so the result lies within f's range (in [0, 1] for a rate)
// and grows with lambda when f grows with i.
func Average(lambda float64, f func(float64) float64) float64 {
	if lambda == 0 {
		return f(0)
	}
	if lambda > spread {
		return f(lambda)
	}
	mode := math.Floor(lambda)
	lg, _ := math.Lgamma(mode + 1)
	p0 := math.Exp(mode*math.Log(lambda) - lambda - lg)
	sum, weight := p0*f(mode), p0
	for i, p := mode+1, p0; ; i++ {
		p *= lambda / i
		sum, weight = sum+p*f(i), weight+p
		if p < 1e-17 && i > lambda {
			break
		}
	}
	for i, p := mode, p0; i > 0; i-- {
		p *= i / lambda
		sum, weight = sum+p*f(i-1), weight+p
		if p < 1e-17 {
			break
		}
	}
	return sum / weight
}
