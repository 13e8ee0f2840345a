package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/filterengine/filterengine/asm"
)

type config struct {
	ns      []int
	rounds  int
	levels  string
	include string
	out     string
}

// result is one RESULT or INFO line: its key=value fields.
type result map[string]string

// measurements collects the runs: ns per key by side/alloc/n/op, and the
// INFO lines by side/alloc/n.
type measurements struct {
	ns   map[string][]float64
	hits map[string]string
	info map[string]result
}

func key(r result) string {
	return r["side"] + "/" + r["alloc"] + "/" + r["n"] + "/" + r["op"]
}

// boostBinary builds cpp/anchor.cpp, or says why it cannot.
func boostBinary(include string) (string, error) {
	gpp, err := exec.LookPath("g++")
	if err != nil {
		return "", fmt.Errorf("g++ is not on PATH (apt-get install g++)")
	}
	if include == "" {
		return "", fmt.Errorf("no Boost headers: set BOOST_INCLUDE (or -boost-include) to a directory holding boost/bloom.hpp from Boost 1.90 or later")
	}
	if _, err := os.Stat(filepath.Join(include, "boost", "bloom.hpp")); err != nil {
		return "", fmt.Errorf("%s has no boost/bloom.hpp: Boost 1.90 or later is needed (boostorg/bloom with bulk operations); point BOOST_INCLUDE at its include directory", include)
	}
	if v, err := os.ReadFile(filepath.Join(include, "boost", "version.hpp")); err == nil {
		if m := regexp.MustCompile(`#define BOOST_VERSION (\d+)`).FindSubmatch(v); m != nil {
			if n, _ := strconv.Atoi(string(m[1])); n < 109000 {
				return "", fmt.Errorf("%s holds Boost %d.%d: 1.90 or later is needed (bulk operations)", include, n/100000, n/100%1000)
			}
		}
	}
	dir, err := os.MkdirTemp("", "filterengine-anchor")
	if err != nil {
		return "", err
	}
	src, bin := filepath.Join(dir, "anchor.cpp"), filepath.Join(dir, "anchor-boost")
	if err := os.WriteFile(src, cppSource, 0o644); err != nil {
		return "", err
	}
	cmd := exec.Command(gpp, "-O3", "-march=native", "-std=c++17", "-DNDEBUG", "-I"+include, "-o", bin, src)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("g++ failed (Boost 1.90 or later is needed in %s): %v\n%s", include, err, msg)
	}
	return bin, nil
}

// defaultLevels is every kernel level above generic this CPU and build
// have, best first, or generic alone.
func defaultLevels() []string {
	var ls []string
	for _, l := range asm.Available() {
		if s := l; s != "generic" {
			ls = append([]string{s}, ls...)
		}
	}
	if len(ls) == 0 {
		ls = []string{"generic"}
	}
	return ls
}

func cpuName() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	name, fam, model := "", "", ""
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "model name":
			if name == "" {
				name = strings.TrimSpace(v)
			}
		case "cpu family":
			if fam == "" {
				fam = strings.TrimSpace(v)
			}
		case "model":
			if model == "" {
				model = strings.TrimSpace(v)
			}
		}
	}
	return fmt.Sprintf("%s (family %s, model %s), %d logical CPUs", name, fam, model, runtime.NumCPU())
}

func orchestrate(c config) error {
	levels := defaultLevels()
	if c.levels != "" {
		levels = strings.Split(c.levels, ",")
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	boost, boostErr := boostBinary(c.include)
	if boostErr != nil {
		fmt.Fprintf(os.Stderr, "anchor: Boost side skipped, our side alone: %v\n", boostErr)
	} else {
		defer os.RemoveAll(filepath.Dir(boost))
	}
	m := measurements{ns: map[string][]float64{}, hits: map[string]string{}, info: map[string]result{}}
	var raw bytes.Buffer
	fmt.Fprintf(os.Stderr, "anchor: %s; levels %s; %d rounds\n", cpuName(), strings.Join(levels, ","), c.rounds)
	for round := range c.rounds {
		for _, n := range c.ns {
			// The programs alternate, and their order turns every round.
			var cmds []*exec.Cmd
			if boostErr == nil {
				cmds = append(cmds, exec.Command(boost, strconv.Itoa(n)))
			}
			for _, l := range levels {
				cmd := exec.Command(self, "-side", "ours", "-n", strconv.Itoa(n))
				cmd.Env = append(os.Environ(), "FILTERENGINE_KERNEL="+l, "FILTERENGINE_REQUIRE_KERNEL="+l)
				cmds = append(cmds, cmd)
			}
			if round%2 == 1 {
				for i, j := 0, len(cmds)-1; i < j; i, j = i+1, j-1 {
					cmds[i], cmds[j] = cmds[j], cmds[i]
				}
			}
			for _, cmd := range cmds {
				t0 := time.Now()
				cmd.Stderr = os.Stderr
				outb, err := cmd.Output()
				if err != nil {
					return fmt.Errorf("%s: %v", strings.Join(cmd.Args, " "), err)
				}
				raw.Write(outb)
				if err := m.parse(outb); err != nil {
					return err
				}
				fmt.Fprintf(os.Stderr, "anchor: round %d/%d n=%d %s %.1fs\n", round+1, c.rounds, n, sideName(cmd), time.Since(t0).Seconds())
			}
		}
	}
	report := m.report(c, levels, boostErr)
	fmt.Print(report)
	if c.out == "" {
		return nil
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(c.out, "report.md"), []byte(report), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(c.out, "results.txt"), raw.Bytes(), 0o644)
}

func sideName(cmd *exec.Cmd) string {
	for _, e := range cmd.Env {
		if l, ok := strings.CutPrefix(e, "FILTERENGINE_KERNEL="); ok {
			return "ours " + l
		}
	}
	return "boost"
}

func (m measurements) parse(out []byte) error {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || (fields[0] != "RESULT" && fields[0] != "INFO") {
			continue
		}
		r := result{}
		for _, f := range fields[1:] {
			if k, v, ok := strings.Cut(f, "="); ok {
				r[k] = v
			}
		}
		if fields[0] == "INFO" {
			if r["cfg"] != "" {
				m.info[r["side"]+"/"+r["alloc"]+"/"+r["n"]] = r
			}
			continue
		}
		v, err := strconv.ParseFloat(r["ns"], 64)
		if err != nil {
			return fmt.Errorf("bad line %q", sc.Text())
		}
		m.ns[key(r)] = append(m.ns[key(r)], v)
		m.hits[key(r)] = r["hits"]
	}
	return sc.Err()
}
