// Command anchor measures the blocked filter beside Boost.Bloom's fastest
// layout, fast_multiblock32<8>, on the same machine, the same splitmix64
// keys and the same lookup order, alternating the two programs, and
// writes a table of ns per key and ratios for each operation (`make
// anchor` at the repository root).
//
// The Boost side is cpp/anchor.cpp, our own program, built with g++ -O3
// -march=native against the Boost headers in -boost-include (Boost 1.90 or
// later: the bulk insert and may_contain). Without g++ or the headers it
// says so and measures our side alone.
//
//	go run ./anchor                         # n = 1e6, 1e7; avx512 and avx2 where the CPU has them
//	go run ./anchor -rounds 3 -n 1e6 -out /tmp/a
package main

import (
	_ "embed"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
)

//go:embed cpp/anchor.cpp
var cppSource []byte

func main() {
	side := flag.String("side", "", "internal: measure one side in this process (ours)")
	nFlag := flag.String("n", "1e6,1e7", "key counts, comma-separated")
	rounds := flag.Int("rounds", 5, "alternating rounds; each program runs once per round and n, the table takes medians")
	levels := flag.String("levels", "", "kernel levels of our side, comma-separated (default: every level above generic the CPU has, or generic)")
	include := flag.String("boost-include", os.Getenv("BOOST_INCLUDE"), "directory holding boost/bloom.hpp (Boost 1.90 or later); default $BOOST_INCLUDE")
	opsFlag := flag.String("ops", "", "our side's operations to measure, comma-separated (default all; for quick A/B runs with -side ours)")
	out := flag.String("out", "results/anchor-latest", "directory for report.md and results.txt (empty: stdout only)")
	flag.Parse()

	ns, err := parseNs(*nFlag)
	if err != nil {
		fmt.Fprintln(os.Stderr, "anchor:", err)
		os.Exit(2)
	}
	if *side == "ours" {
		ops := map[string]bool{}
		for _, op := range strings.Split(*opsFlag, ",") {
			if op != "" {
				ops[op] = true
			}
		}
		oursMain(ns[0], ops)
		return
	}
	if err := orchestrate(config{ns: ns, rounds: *rounds, levels: *levels, include: *include, out: *out}); err != nil {
		fmt.Fprintln(os.Stderr, "anchor:", err)
		os.Exit(1)
	}
}

func parseNs(s string) ([]int, error) {
	var ns []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || v < 1000 || v > 1e9 {
			return nil, fmt.Errorf("-n %q: want key counts in [1e3, 1e9]", f)
		}
		ns = append(ns, int(v))
	}
	return ns, nil
}
