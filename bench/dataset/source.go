package dataset

import (
	"fmt"
	"math"
	"strings"
)

// Distribution is one of the seed's three data sets.
type Distribution uint8

const (
	Normal      Distribution = iota // normal(0, 1)
	Uniform                         // uniform(0, 10)
	Exponential                     // exponential with rate 100 (mean 0.01)
)

// Distributions lists every data set in the seed's order.
var Distributions = []Distribution{Normal, Uniform, Exponential}

var distNames = [...]string{Normal: "normal", Uniform: "uniform", Exponential: "exponential"}

func (d Distribution) String() string {
	if int(d) < len(distNames) {
		return distNames[d]
	}
	return fmt.Sprintf("distribution(%d)", uint8(d))
}

// ParseDistribution reads a name as String spells it.
func ParseDistribution(name string) (Distribution, error) {
	for d, n := range distNames {
		if strings.EqualFold(strings.TrimSpace(name), n) {
			return Distribution(d), nil
		}
	}
	return 0, fmt.Errorf("unknown distribution %q (want %s)", name, strings.Join(distNames[:], ", "))
}

// SeedRows is the seed's data-set size, SeedBits its filter array and
// SeedK its probe count.
const (
	SeedRows = 100_000_000
	SeedBits = 100_000_000
	SeedK    = 10
	SeedRNG  = 2022
)

// minstd is libstdc++'s minstd_rand0: x <- 16807 x mod (2^31 - 1).
type minstd struct{ x uint64 }

const (
	minstdMod = 1<<31 - 1
	minstdMin = 1
	// minstdRange is max - min + 1 of the engine's output.
	minstdRange = minstdMod - 1
)

func newMinstd(seed uint64) minstd {
	x := seed % minstdMod
	if x == 0 {
		x = 1
	}
	return minstd{x}
}

func (g *minstd) next() uint64 {
	g.x = g.x * 16807 % minstdMod
	return g.x
}

// canonical is libstdc++'s generate_canonical<double, 53> over minstd: two
// draws (ceil(53 / log2(range))) combined in base range, then clamped
// below 1.
func (g *minstd) canonical() float64 {
	const r = float64(minstdRange)
	sum := float64(g.next() - minstdMin)
	sum += float64(g.next()-minstdMin) * r
	v := sum / (r * r)
	if v >= 1 {
		v = math.Nextafter(1, 0)
	}
	return v
}

// Source draws the doubles of one data set.
type Source struct {
	dist     Distribution
	g        minstd
	saved    float64
	hasSaved bool
}

// NewSource returns the generator of d seeded with seed (SeedRNG for the
// seed's data).
func NewSource(d Distribution, seed uint64) *Source {
	return &Source{dist: d, g: newMinstd(seed)}
}

// Next returns the next value.
func (s *Source) Next() float64 {
	switch s.dist {
	case Uniform:
		return s.g.canonical()*10 + 0
	case Exponential:
		return -math.Log(1-s.g.canonical()) / 100
	default:
		return s.normal()
	}
}

// normal is libstdc++'s normal_distribution: Marsaglia's polar method,
// returning the second coordinate first and saving the first for the
// next call.
func (s *Source) normal() float64 {
	if s.hasSaved {
		s.hasSaved = false
		return s.saved
	}
	var x, y, r2 float64
	for {
		x = 2*s.g.canonical() - 1
		y = 2*s.g.canonical() - 1
		r2 = x*x + y*y
		if r2 <= 1 && r2 != 0 {
			break
		}
	}
	mult := math.Sqrt(-2 * math.Log(r2) / r2)
	s.saved, s.hasSaved = x*mult, true
	return y * mult
}
