package main

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/engine"
)

// workFloorBytes is the size of the filter of the batch's work floor:
// half of the smallest L1 data cache of the cores the kernels target. The
// C++ side's kWorkFloorBits is the same size.
const workFloorBytes = 16 << 10

// passes is the number of in-process passes per operation; the median is
// reported, as on the C++ side.
const passes = 3

// runOurs measures blocked.New(n, 0.01) over the anchor's keys at the
// kernel level this process runs (FILTERENGINE_KERNEL, set by the parent),
// printing RESULT lines in the C++ side's form, and checks what it
// measures: every member found, batch answers equal to single-key ones,
// the batch-built filter equal to the single-key one.
func runOurs(w io.Writer, n int, ops map[string]bool) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	k := makeKeys(n)
	level := asm.Kernel()
	// runs is the number of passes of op: none for an op -ops leaves out.
	runs := func(op string) int {
		if len(ops) > 0 && !ops[op] {
			return 0
		}
		return passes
	}
	emit := func(op string, ns []float64, hits int) {
		if len(ns) == 0 {
			return
		}
		fmt.Fprintf(w, "RESULT side=ours cfg=blocked alloc=%s n=%d op=%s ns=%.3f hits=%d\n", level, n, op, median(ns), hits)
	}
	timed := func(f func()) float64 {
		runtime.GC()
		t0 := threadNanos()
		f()
		return float64(threadNanos()-t0) / float64(n)
	}
	// measure times f as op, runs(op) times, emits the median with what
	// the last run returned (its hits) and returns that.
	measure := func(op string, f func() int) int {
		var ns []float64
		hits := 0
		for range runs(op) {
			ns = append(ns, timed(func() { hits = f() }))
		}
		emit(op, ns, hits)
		return hits
	}
	// fresh is a new filter whose array is resident: Boost's constructor
	// zero-fills its array, so the page faults of first touch fall
	// outside its timed inserts; Reset writes ours once for the same.
	fresh := func() *blocked.Filter {
		f, err := blocked.New(uint64(n), 0.01)
		if err != nil {
			panic(err)
		}
		f.Reset()
		return f
	}
	bytes8 := func(ks []uint64) []byte {
		b := make([]byte, 8*len(ks))
		for i, x := range ks {
			binary.LittleEndian.PutUint64(b[8*i:], x)
		}
		return b
	}

	var ns []float64
	var built *blocked.Filter
	for range runs("insert_single") {
		f := fresh()
		ns = append(ns, timed(func() { addEach(f, k.members) }))
		if built != nil {
			built.Close()
		}
		built = f
	}
	emit("insert_single", ns, 0)
	if built == nil {
		built = fresh()
		built.AddUint64s(k.members)
	}
	f := built

	ns, same := ns[:0], true
	for range runs("insert_bulk") {
		g := fresh()
		ns = append(ns, timed(func() { g.AddUint64s(k.members) }))
		same = same && g.Equal(f)
		g.Close()
	}
	emit("insert_bulk", ns, b2i(same))

	mb := bytes8(k.members)
	ns, same = ns[:0], true
	for range runs("insert_single_bytes") {
		g := fresh()
		ns = append(ns, timed(func() { addEachBytes(g, mb) }))
		same = same && g.Equal(f)
		g.Close()
	}
	emit("insert_single_bytes", ns, b2i(same))

	single := func(op string, ks []uint64) int {
		return measure(op, func() int { return testEach(f, ks) })
	}
	out := make([]bool, n)
	// bulk times g's batch test of ks as op.
	bulk := func(g *blocked.Filter, op string, ks []uint64) int {
		return measure(op, func() int { return g.TestUint64s(ks, out) })
	}
	memberHits := single("member_single", k.lookup)
	absentHits := single("absent_single", k.absent)
	m, a := bulk(f, "member_bulk", k.lookup), bulk(f, "absent_bulk", k.absent)
	if (runs("member_single") > 0 && runs("member_bulk") > 0 && m != memberHits) ||
		(runs("absent_single") > 0 && runs("absent_bulk") > 0 && a != absentHits) {
		return fmt.Errorf("%s: batch and single-key answers differ", level)
	}
	if runs("absent_single") == 0 {
		absentHits = a
	}
	if runs("member_single") > 0 && memberHits != n {
		return fmt.Errorf("%s: %d of %d members found", level, memberHits, n)
	}
	lb := bytes8(k.lookup)
	measure("member_single_bytes", func() int { return testEachBytes(f, lb) })

	// The floor of a single-key test: the same loads alone, one 8-byte
	// word of each lookup key's line in an array of the filter's size
	// (faulted in beforehand), the key hashed and its line found by the
	// instructions the single-key kernels use, in an assembly loop (no
	// call, the per-seed key computed once: loadsHashed).
	lines, seed := f.Lines(), f.Seed()
	words := make([]uint64, lines*8)
	for i := range words {
		words[i] = uint64(i)
	}
	// The floors return the low bit of a running sum of what they load,
	// so that no load is dead.
	sum := uint64(0)
	measure("floor_single", func() int {
		sum += loadsHashed(words, k.lookup, seed, lines)
		return int(sum & 1)
	})

	// The same floor with Boost.Bloom's one-multiply mix (the high and low
	// words of the 128-bit product with the 64-bit golden ratio, XORed) in
	// place of XXH3: what the library's hash contract (XXH3 of the key's
	// bytes for every key form) costs a single-key loop.
	measure("floor_single_mulmix", func() int {
		for _, x := range k.lookup {
			sum += words[asm.BlockedLine(mulMix(x), lines)*8]
		}
		return int(sum & 1)
	})

	// The same loads with that mix behind one assembly call per key
	// (loadMixed), as blocked's single-key methods call their kernel: Go
	// inlines no assembly, and a call costs its arguments and result
	// through the stack, the caller's live registers saved around it,
	// and the call and return; the floor of any single-key method that
	// probes in vector registers.
	fp := newFloorProbe(words, lines)
	measure("floor_single_call", func() int {
		sum += loadsCalled(fp, k.lookup)
		return int(sum & 1)
	})

	// The floor of a batch test: the same loads alone, one word of each
	// lookup key's line, the line indices computed beforehand, in a loop
	// of a few instructions a key, which keeps as many loads in flight as
	// the core allows.
	idx := make([]uint64, n)
	for i, x := range k.lookup {
		idx[i] = asm.BlockedLine(engine.HashUint64Seed(x, seed), lines) * 8
	}
	measure("floor_bulk", func() int {
		for _, i := range idx {
			sum += words[i]
		}
		return int(sum & 1)
	})

	// The same loads with the batch kernels' software prefetch, each
	// line prefetched asm.BlockedAhead keys before it is loaded: the
	// floor of a kernel that prefetches, which can run faster than the
	// plain loop above. The kernels prefetch into L1 or L2 as the core
	// suits (cpulevel.PrefetchFarL1); the floor is the faster of the two.
	ns = ns[:0]
	for range runs("floor_bulk_prefetch") {
		l2 := timed(func() { sum += loadsPrefetched(words, idx, asm.BlockedAhead, false) })
		l1 := timed(func() { sum += loadsPrefetched(words, idx, asm.BlockedAhead, true) })
		ns = append(ns, min(l1, l2))
	}
	emit("floor_bulk_prefetch", ns, int(sum&1))

	// The other side of a batch: its work with no load to wait for. XXH3
	// of the lookup keys alone, at this level (asm.HashUint64s, a chunk at
	// a time into a buffer that stays in L1); and the batch test itself on
	// a filter of 16 KiB, which L1 holds whole, so every line is a hit and
	// the kernel (the same one, without the prefetches it skips below
	// 1 MiB) runs at the pace of its instructions.
	hs := make([]uint64, 1024)
	measure("floor_bulk_hash", func() int {
		for i := 0; i < n; i += len(hs) {
			c := k.lookup[i:min(i+len(hs), n)]
			asm.HashUint64s(hs, c, seed)
			sum += hs[0]
		}
		return int(sum & 1)
	})
	if runs("floor_bulk_work") > 0 {
		small, err := blocked.NewMK(workFloorBytes*8, f.K())
		if err != nil {
			return err
		}
		small.AddUint64s(k.members[:min(n, workFloorBytes*8/10)])
		bulk(small, "floor_bulk_work", k.lookup)
		small.Close()
	}

	// The least work a batch of this layout does at this level, timed
	// on an array of the filter's size: the grouped kernel's loop with
	// XXH3, the line (one product), the prefetch, the window and the
	// 512-bit line's test or OR, each bit the low six bits of a byte of
	// the hash (leastWork), where the level has grouped kernels.
	if hasLeastWork() {
		key := asm.NewBlockedProbe(nil, 0, f.K(), seed).Key
		measure("floor_bulk_least", func() int { return leastWork(words, k.lookup, out, f.K(), key) })
		measure("floor_bulk_least_add", func() int { return leastWork(words, k.lookup, nil, f.K(), key) })
	}
	fmt.Fprintf(w, "INFO side=ours cfg=blocked alloc=%s n=%d bits_per_key=%.4f k=%d model_fpr=%.6f fpr=%.6f huge=%v anon_huge_kb=%d\n",
		level, n, float64(f.M())/float64(n), f.K(), f.ModelFPR(uint64(n)), float64(absentHits)/float64(n), f.HugePages(), anonHugeKB())
	f.Close()
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func oursMain(n int, ops map[string]bool) {
	if err := runOurs(os.Stdout, n, ops); err != nil {
		fmt.Fprintln(os.Stderr, "anchor:", err)
		os.Exit(1)
	}
}

// anonHugeKB is the process's AnonHugePages (/proc/self/smaps_rollup),
// -1 where it cannot be read: whether the kernel gave the huge pages the
// filter asked for.
func anonHugeKB() int {
	b, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "AnonHugePages:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return kb
		}
	}
	return -1
}
