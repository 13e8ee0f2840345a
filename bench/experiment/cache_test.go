package experiment

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/filterengine/filterengine/bench/filters"
)

// Experiment n: every selected filter at every n without a false
// negative; batch timings for ours only; above CacheFill the filter holds
// CacheFill keys, the absent test is not reported and the static filter
// is left out with a note.
func TestCache(t *testing.T) {
	c := smallConfig(t, "n")
	c.Entries = append(c.Entries, mustSelect(t, "blocked,boom/counting")...)
	c.CacheN, c.CacheFill, c.CacheSample = []uint64{1_000, 8_000}, 4_000, 3_000
	r, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	// classic, blocked, bloom/v3 at both n; binaryfuse8 at 1000 only;
	// boom/counting not in experiment n.
	if len(r.Cache) != 7 {
		t.Fatalf("%d rows: %+v", len(r.Cache), r.Cache)
	}
	for _, row := range r.Cache {
		partial := row.N > c.CacheFill
		if row.FalseNegatives != 0 || row.Sampled != c.CacheSample || !(row.KeyTestMemberNs > 0) || row.Held != min(row.N, c.CacheFill) {
			t.Errorf("%+v", row)
		}
		if ours := row.Filter == "classic" || row.Filter == "blocked"; ours != row.Ours || ours != (row.TestMemberNs > 0) {
			t.Errorf("%s: Ours = %v, batch member ns/key = %v", row.Filter, row.Ours, row.TestMemberNs)
		}
		if partial != math.IsNaN(row.KeyTestAbsentNs) || partial != math.IsNaN(row.FPR) {
			t.Errorf("%s at n = %d holding %d: absent %v, FPR %v", row.Filter, row.N, row.Held, row.KeyTestAbsentNs, row.FPR)
		}
		if !partial && row.FPR > 0.03 {
			t.Errorf("%s at n = %d: FPR %v at p = 1%%", row.Filter, row.N, row.FPR)
		}
		if row.Filter == "xor/binaryfuse8" && (partial || row.AddForm != FormBuild) {
			t.Errorf("binaryfuse8: %+v", row)
		}
	}
	want := map[string]bool{
		"n: xor/binaryfuse8 left out at n = 8000: static, it cannot hold fewer keys than it is built for (-cache-fill 4000)": false,
		fmt.Sprintf("n: boom/counting left out: experiment n runs %v", CacheFilters):                                         false,
	}
	for _, n := range r.Notes {
		if _, ok := want[n]; ok {
			want[n] = true
		}
	}
	for n, seen := range want {
		if !seen {
			t.Errorf("no note %q in %q", n, r.Notes)
		}
	}
}

func mustSelect(t *testing.T, names string) []filters.Entry {
	t.Helper()
	es, err := filters.Select(names)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// Members are drawn over [0, n): every one is a member key Mix64(i),
// i < n, and a sample larger than n repeats them.
func TestMemberSample(t *testing.T) {
	const n = 50
	members := map[uint64]bool{}
	for _, k := range memberSample(n, 10_000) {
		members[k] = true
	}
	if len(members) != n {
		t.Errorf("a sample of 10000 over n = %d holds %d distinct keys", n, len(members))
	}
	var keys cacheKeys
	all := keys.set(memberSample(n, 20))
	if len(all.Keys) != 20 || len(all.Keys[3]) != 8 {
		t.Fatalf("set: %d keys", len(all.Keys))
	}
	if b := keys.slice(5, 9); len(b.Ints) != 4 || b.Ints[0] != all.Ints[5] || &b.Keys[0][0] != &all.Keys[5][0] {
		t.Errorf("slice(5, 9) = %v", b.Ints)
	}
}
