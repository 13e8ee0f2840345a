package experiment

import (
	"bytes"
	"fmt"
	"time"

	"github.com/filterengine/filterengine/bench/interop"
)

// Experiment g (storage-engine half): the LevelDB filter and RocksDB's
// legacy filter as Pebble writes it, ours against goleveldb's and
// Pebble's own code on the same keys (the formats' speed targets). -quick keeps
// these sizes: one run is a few hundred milliseconds.
const (
	formatsKVN          = 100_000
	formatsKVBitsPerKey = 10
)

// FormatsKVRow is one implementation of one storage-engine filter format.
type FormatsKVRow struct {
	Format, Impl string
	N            int
	BitsPerKey   int
	KeyLen       int
	Bytes        int
	// Median ns per key: Build writes the whole filter (per key), Member
	// and Absent are per-key MayMatch calls over N distinct keys each.
	BuildNs, MemberNs, AbsentNs float64
	FalseNegatives              int
	FPR                         float64
	// SameBytes: the filter equals the other implementation's of the same
	// format, byte for byte.
	SameBytes bool
}

// formatsKVMinReps is the fewest repetitions of experiment g, whatever
// -reps says (one repetition takes well under a second).
const formatsKVMinReps = 5

// formatsKVBuildPasses is how many builds one repetition times back to
// back, keeping their median: one cold build per repetition measured a
// builder that allocates (goleveldb's) at 3-6x its steady-state time.
const formatsKVBuildPasses = 7

// runFormatsKV is experiment g's LevelDB and Pebble rows. An untimed
// round warms every implementation up (allocations, caches); then the
// implementations alternate within each repetition so drift hits both
// sides alike.
func runFormatsKV(d *driver, c *Config, r *Results) error {
	impls := interop.Impls()
	n := formatsKVN
	reps := max(c.Reps, formatsKVMinReps)
	c.Progress.Phase(fmt.Sprintf("g: LevelDB and Pebble filter formats against goleveldb and Pebble, n = %d, %d bits per key, %d reps", n, formatsKVBitsPerKey, reps),
		float64((reps+1)*len(impls)*(2+formatsKVBuildPasses)*n))
	members, absent := interop.Keys(n, 1), interop.Keys(n, 2)
	build, member, abs := make([][]float64, len(impls)), make([][]float64, len(impls)), make([][]float64, len(impls))
	filters := make([][]byte, len(impls))
	rows := make([]FormatsKVRow, len(impls))
	for rep := -1; rep < reps; rep++ {
		for i, im := range impls {
			if err := d.ctx.Err(); err != nil {
				return err
			}
			d.what = fmt.Sprintf("%s %s, rep %d/%d", im.Format, im.Name, rep+1, reps)
			passes := make([]float64, formatsKVBuildPasses)
			for p := range passes {
				t0 := time.Now()
				filters[i] = im.Build(filters[i][:0], members, formatsKVBitsPerKey)
				passes[p] = nsPerKey(time.Since(t0), n)
			}
			hits, inSpent := mayMatchAll(im.MayMatch, filters[i], members)
			fp, absSpent := mayMatchAll(im.MayMatch, filters[i], absent)
			if rep >= 0 { // rep -1 is the warm-up round
				build[i] = append(build[i], median(passes))
				member[i] = append(member[i], nsPerKey(inSpent, n))
				abs[i] = append(abs[i], nsPerKey(absSpent, n))
			}
			rows[i] = FormatsKVRow{Format: im.Format, Impl: im.Name, N: n, BitsPerKey: formatsKVBitsPerKey, KeyLen: interop.KeyLen,
				Bytes: len(filters[i]), FalseNegatives: n - hits, FPR: rate(fp, n)}
			d.prog.Advance(float64((2+formatsKVBuildPasses)*n), d.what)
		}
	}
	for i, im := range impls {
		rows[i].BuildNs, rows[i].MemberNs, rows[i].AbsentNs = median(build[i]), median(member[i]), median(abs[i])
		rows[i].SameBytes = true
		for j, other := range impls {
			if j != i && other.Format == im.Format && !bytes.Equal(filters[i], filters[j]) {
				rows[i].SameBytes = false
			}
		}
	}
	r.FormatsKV = append(r.FormatsKV, rows...)
	return nil
}

// mayMatchAll asks mayMatch about every key, one call per key.
func mayMatchAll(mayMatch func(filter, key []byte) bool, filter []byte, keys [][]byte) (int, time.Duration) {
	hits := 0
	t0 := time.Now()
	for _, key := range keys {
		if mayMatch(filter, key) {
			hits++
		}
	}
	return hits, time.Since(t0)
}
