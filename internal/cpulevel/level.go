// Package cpulevel holds the instruction-set level the kernels of asm run
// at: the levels, the highest one this CPU and build support, the cap
// FILTERENGINE_KERNEL puts on it at start-up, and the switch that lets the
// test kit and bench/ run every level in one process. Users see only
// asm.Kernel and asm.Available; the switch is not part of the library's
// API because it is not safe to call while kernels run.
package cpulevel

import (
	"fmt"
	"os"
	"strings"
)

// Level is an instruction-set level of the kernels, lowest first.
type Level uint8

const (
	Generic Level = iota // the Go reference kernels
	AVX2                 // AVX2 with BMI2
	AVX512               // AVX-512 F, BW, DQ and VL, with AVX2 and BMI2
)

var names = [...]string{Generic: "generic", AVX2: "avx2", AVX512: "avx512"}

func (l Level) String() string {
	if int(l) < len(names) {
		return names[l]
	}
	return fmt.Sprintf("level(%d)", uint8(l))
}

// Parse reads a level as FILTERENGINE_KERNEL spells it.
func Parse(name string) (Level, error) {
	for l, n := range names {
		if strings.EqualFold(strings.TrimSpace(name), n) {
			return Level(l), nil
		}
	}
	return 0, fmt.Errorf("filterengine: unknown kernel %q (want one of %s)", name, strings.Join(names[:], ", "))
}

// VBMI reports whether the CPU has AVX-512 VBMI (VPMULTISHIFTQB) beside
// the avx512 level; kernels with a VBMI form run it at that level.
func VBMI() bool { return vbmi }

var vbmi = detectVBMI()

// PrefetchFarL1 reports whether prefetches issued many tens of keys
// ahead should fill L1 (PREFETCHT0) rather than only L2 (PREFETCHT1) on
// this CPU. It is a property of the core measured, not of the ISA: true
// on AMD cores from Zen 5 on, false elsewhere.
func PrefetchFarL1() bool { return prefetchFarL1 }

var prefetchFarL1 = detectPrefetchFarL1()

// Env names the variable that caps the level at start-up.
const Env = "FILTERENGINE_KERNEL"

// best is the highest level the CPU and build support; start is best
// capped by Env. Both are fixed at package initialisation: an unknown
// value of Env stops the program there rather than being ignored.
var best = detect()
var start = capped(best, os.Getenv(Env))

func capped(b Level, v string) Level {
	if v == "" {
		return b
	}
	c, err := Parse(v)
	if err != nil {
		panic(fmt.Sprintf("%s=%q: %v", Env, v, err))
	}
	return min(b, c)
}

// Start is the level a program starts at.
func Start() Level { return start }

// Best is the highest level this CPU and build support.
func Best() Level { return best }

// inUse is the level variable the kernels read (asm binds its own, which
// its assembly reads directly); the fallback serves a program without asm.
var fallback = start
var inUse = &fallback

// Bind makes p the level Current reports and Use switches. asm calls it
// once at initialisation with the variable its kernels read.
func Bind(p *Level) { inUse = p }

// Current is the level in use.
func Current() Level { return *inUse }

// Available lists the levels this CPU and build can run, lowest first.
func Available() []Level {
	out := make([]Level, 0, len(names))
	for l := Generic; l <= best; l++ {
		out = append(out, l)
	}
	return out
}

// Use switches every kernel to l and returns a function restoring the
// previous level, so that tests and benchmarks run each path in one
// process. It is not safe to call while kernels run on other goroutines.
// A level the CPU or build lacks is an error.
func Use(l Level) (restore func(), err error) {
	if l > best {
		return nil, fmt.Errorf("filterengine: kernel %v not available on this CPU/build (best is %v)", l, best)
	}
	prev := *inUse
	*inUse = l
	return func() { *inUse = prev }, nil
}
