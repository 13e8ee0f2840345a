package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// row is one operation of the table: ours against Boost's op, or (for
// the []byte forms) against our own uint64 form.
type row struct {
	op, what, vs string
	// target is the largest ratio we aim for at n < 1e7 and at
	// n >= 1e7.
	target, targetLarge float64
	// own: the ratio is to our own op vs at the same level, not Boost.
	own bool
}

var rows = []row{
	{"insert_single", "`AddUint64`, one key per call", "insert_single", 1.2, 1.2, false},
	{"member_single", "`TestUint64` member, one key per call", "member_single", 1.2, 1.2, false},
	{"absent_single", "`TestUint64` absent, one key per call", "absent_single", 1.2, 1.2, false},
	{"insert_bulk", "`AddUint64s` batch / bulk insert", "insert_bulk", 1.0, 0.8, false},
	{"member_bulk", "`TestUint64s` batch / bulk member", "member_bulk", 1.0, 0.8, false},
	{"absent_bulk", "`TestUint64s` batch / bulk absent", "absent_bulk", 1.0, 0.8, false},
	{"insert_single_bytes", "`Add` 8-byte `[]byte` / `AddUint64`", "insert_single", 1.3, 1.3, true},
	{"member_single_bytes", "`Test` 8-byte `[]byte` / `TestUint64`", "member_single", 1.3, 1.3, true},
	{"floor_single", "floor: the member test's loads alone (XXH3 and line as the kernels compute them, one word; assembly loop)", "member_single", 0, 0, false},
	{"floor_single_mulmix", "floor: the same in a Go loop with Boost's one-multiply mix in place of XXH3", "member_single", 0, 0, false},
	{"floor_single_call", "floor: the same with Boost's mix, one assembly call per key (as the single-key methods call their kernel)", "member_single", 0, 0, false},
	{"floor_bulk", "floor: the same loads alone, line indices computed beforehand", "member_bulk", 0, 0, false},
	{"floor_bulk_prefetch", "floor: the same, each line prefetched as the batch kernels do (assembly, the faster of into L1 and into L2)", "member_bulk", 0, 0, false},
	{"floor_bulk_hash", "floor: the batch's XXH3 of the keys alone, at this level (`asm.HashUint64s`)", "member_bulk", 0, 0, false},
	{"floor_bulk_least", "floor: the batch test's least work at this level, the kernel's own loop with XXH3, the line (one product), its prefetch, the window and the 512-bit line's test, each bit the low six bits of a byte of the hash (no g, no cut)", "member_bulk", 0, 0, false},
	{"floor_bulk_least_add", "floor: the same for the batch add (the line's OR)", "insert_bulk", 0, 0, false},
	{"floor_bulk_work", "floor: the batch test itself on a 16 KiB filter, every line in L1 (its work, no load waiting), against Boost's bulk test on the same", "floor_bulk_work", 0, 0, false},
}

// ratio returns the median over the rounds of num's time over the least
// of dens' times in the same round (Boost's best page size, or our own
// form in the same process), so that a state the machine is in for a
// round moves both sides of a ratio; the ratio of the medians where the
// series do not pair up. Series that are missing are left out of dens.
func (m measurements) ratio(num string, dens ...string) (float64, bool) {
	x, ok := m.ns[num]
	if !ok || len(x) == 0 {
		return 0, false
	}
	var ys [][]float64
	for _, d := range dens {
		if y, ok := m.ns[d]; ok && len(y) > 0 {
			ys = append(ys, y)
		}
	}
	if len(ys) == 0 {
		return 0, false
	}
	paired := true
	for _, y := range ys {
		paired = paired && len(y) == len(x)
	}
	if !paired {
		best := median(ys[0])
		for _, y := range ys[1:] {
			best = min(best, median(y))
		}
		return median(x) / best, best > 0
	}
	rs := make([]float64, len(x))
	for i := range x {
		best := ys[0][i]
		for _, y := range ys[1:] {
			best = min(best, y[i])
		}
		if best <= 0 {
			return 0, false
		}
		rs[i] = x[i] / best
	}
	return median(rs), true
}

func (m measurements) med(k string) (float64, bool) {
	v, ok := m.ns[k]
	if !ok || len(v) == 0 {
		return 0, false
	}
	return median(v), true
}

func nName(n int) string {
	s := strconv.FormatFloat(float64(n), 'g', -1, 64)
	return strings.Replace(s, "e+0", "e", 1)
}

func (m measurements) report(c config, levels []string, boostErr error) string {
	var b strings.Builder
	host, _ := os.Hostname()
	_ = host
	fmt.Fprintf(&b, "# blocked against Boost.Bloom fast_multiblock32<8>\n\n")
	fmt.Fprintf(&b, "- CPU: %s\n", cpuName())
	fmt.Fprintf(&b, "- date: %s\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(&b, "- command: `make anchor` (`go run ./anchor -n %s -rounds %d -levels %s`)\n", joinNs(c.ns), c.rounds, strings.Join(levels, ","))
	fmt.Fprintf(&b, "- ns per key (thread CPU time, on both sides), median of %d alternating rounds (each the median of %d in-process passes); our side is `blocked.New(n, 0.01)` at each kernel level, Boost's is `fast_multiblock32<8>` built by `(n, 0.01)`, best of 4 KiB pages (std) and 2 MiB pages (huge); ratio = the median over the rounds of ours / Boost's best in the same round; the `[]byte` rows are ours / our uint64 form in the same process.\n", c.rounds, passes)
	if boostErr != nil {
		fmt.Fprintf(&b, "- Boost side not run: %v\n", boostErr)
	}
	b.WriteString("\n| n | operation |")
	for _, l := range levels {
		fmt.Fprintf(&b, " blocked %s |", l)
	}
	b.WriteString(" Boost std | Boost huge |")
	for _, l := range levels {
		fmt.Fprintf(&b, " ratio %s |", l)
	}
	b.WriteString(" target |\n|---|---|")
	b.WriteString(strings.Repeat("---:|", 2*len(levels)+3))
	b.WriteString("\n")
	for _, n := range c.ns {
		ns := strconv.Itoa(n)
		for _, r := range rows {
			target := r.target
			if n >= 10_000_000 {
				target = r.targetLarge
			}
			fmt.Fprintf(&b, "| %s | %s |", nName(n), r.what)
			ours := make([]float64, len(levels))
			for i, l := range levels {
				v, ok := m.med("ours/" + l + "/" + ns + "/" + r.op)
				ours[i] = v
				fmt.Fprintf(&b, " %s |", cell(v, ok))
			}
			std, okS := m.med("boost/std/" + ns + "/" + r.vs)
			huge, okH := m.med("boost/huge/" + ns + "/" + r.vs)
			if r.own {
				b.WriteString(" | |")
			} else {
				fmt.Fprintf(&b, " %s | %s |", cell(std, okS), cell(huge, okH))
			}
			for i, l := range levels {
				num := "ours/" + l + "/" + ns + "/" + r.op
				dens := []string{"boost/std/" + ns + "/" + r.vs, "boost/huge/" + ns + "/" + r.vs}
				if r.own {
					dens = []string{"ours/" + l + "/" + ns + "/" + r.vs}
				}
				ratio, ok := m.ratio(num, dens...)
				if !ok || ours[i] == 0 {
					b.WriteString(" |")
					continue
				}
				mark := ""
				if target > 0 && ratio > target {
					mark = " (missed)"
				}
				fmt.Fprintf(&b, " %.2fx%s |", ratio, mark)
			}
			if target > 0 {
				fmt.Fprintf(&b, " <= %.1fx |\n", target)
			} else {
				b.WriteString(" |\n")
			}
		}
	}
	b.WriteString("\nBits per key and false-positive rate (measured on the n absent keys):\n\n")
	b.WriteString("| n | filter | bits per key | model FPR | measured FPR |\n|---|---|---:|---:|---:|\n")
	for _, n := range c.ns {
		ns := strconv.Itoa(n)
		for _, l := range levels {
			if r, ok := m.info["ours/"+l+"/"+ns]; ok {
				fpr, _ := strconv.ParseFloat(r["fpr"], 64)
				mf, _ := strconv.ParseFloat(r["model_fpr"], 64)
				fmt.Fprintf(&b, "| %s | blocked (k = %s, %s) | %s | %.3f%% | %.3f%% |\n", nName(n), r["k"], l, trim(r["bits_per_key"]), 100*mf, 100*fpr)
			}
		}
		for _, a := range []string{"std", "huge"} {
			if r, ok := m.info["boost/"+a+"/"+ns]; ok {
				mf, _ := strconv.ParseFloat(r["model_fpr"], 64)
				fpr := "-"
				if h, err := strconv.ParseFloat(m.hits["boost/"+a+"/"+ns+"/absent_single"], 64); err == nil {
					fpr = fmt.Sprintf("%.3f%%", 100*h/float64(n))
				}
				fmt.Fprintf(&b, "| %s | Boost fast_multiblock32<8> (%s) | %s | %.3f%% | %s |\n", nName(n), a, trim(r["bits_per_key"]), 100*mf, fpr)
			}
		}
	}
	return b.String()
}

func cell(v float64, ok bool) string {
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.2f", v)
}

func trim(s string) string {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return fmt.Sprintf("%.2f", v)
}

func joinNs(ns []int) string {
	var s []string
	for _, n := range ns {
		s = append(s, nName(n))
	}
	return strings.Join(s, ",")
}
