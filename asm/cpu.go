package asm

import (
	"fmt"
	"os"
	"strings"
)

// Level is a kernel family's instruction-set level.
type Level uint8

const (
	Generic Level = iota
	AVX2
	AVX512
)

var levelNames = [...]string{Generic: "generic", AVX2: "avx2", AVX512: "avx512"}

func (l Level) String() string {
	if int(l) < len(levelNames) {
		return levelNames[l]
	}
	return fmt.Sprintf("level(%d)", uint8(l))
}

// ParseLevel reads a kernel name as FILTERENGINE_KERNEL spells it.
func ParseLevel(name string) (Level, error) {
	for l, n := range levelNames {
		if strings.EqualFold(strings.TrimSpace(name), n) {
			return Level(l), nil
		}
	}
	return 0, fmt.Errorf("filterengine: unknown kernel %q (want one of %s)", name, strings.Join(levelNames[:], ", "))
}

// EnvKernel caps the kernel level at start-up.
const EnvKernel = "FILTERENGINE_KERNEL"

// best is the highest level the CPU and build support; level is the one in
// use. Both are set once at init; UseLevel changes level for tests.
var best, level = initLevel()

func initLevel() (Level, Level) {
	b := detect()
	v, ok := os.LookupEnv(EnvKernel)
	if !ok || v == "" {
		return b, b
	}
	capped, err := ParseLevel(v)
	if err != nil {
		panic(fmt.Sprintf("%s=%q: %v", EnvKernel, v, err))
	}
	return b, min(b, capped)
}

// Kernel names the kernel level in use: "generic", "avx2" or "avx512".
func Kernel() string { return level.String() }

// Current returns the level in use.
func Current() Level { return level }

// Available lists the levels this CPU and build can run, lowest first.
func Available() []Level {
	out := make([]Level, 0, 3)
	for l := Generic; l <= best; l++ {
		out = append(out, l)
	}
	return out
}

// UseLevel switches every kernel to l and returns a function restoring the
// previous level. It exists so tests and benchmarks can run each path in
// one process; it is not safe to call while kernels run on other
// goroutines. A level the CPU lacks is an error.
func UseLevel(l Level) (restore func(), err error) {
	if l > best {
		return nil, fmt.Errorf("filterengine: kernel %v not available on this CPU/build (best is %v)", l, best)
	}
	prev := level
	level = l
	return func() { level = prev }, nil
}
