package experiment

import (
	"bytes"
	"fmt"
	"math"
	"time"

	"github.com/filterengine/filterengine/formats/clickhouse"
)

// Experiment g (ClickHouse part): formats/clickhouse's skip-index granules,
// built and asked through the package's public API. The package's scalar
// reference (ClickHouse's code line by line) lives in its tests only, so
// the build rows compare the per-row adds with the batch adds, and the test
// rows a Probe prepared once and asked of every granule by Select with the
// per-granule MayContain calls that hash the value again for each granule.
const (
	clickHouseBuildRows   = 8192 // rows of one built granule: ClickHouse's index_granularity
	clickHouseGranules    = 512  // granules one test query is asked of
	clickHouseGranuleRows = 256  // rows of each of those granules
	clickHouseQueries     = 64   // tokens (values) asked of the granules
	// clickHouseBuildPasses builds per repetition and implementation, their
	// median kept (see formatsKVBuildPasses).
	clickHouseBuildPasses = 7
)

// clickHouseIndexes are the index types of experiment g's ClickHouse rows.
var clickHouseIndexes = []string{"tokenbf_v1(10240, 3, 0)", "ngrambf_v1(3, 10240, 3, 0)", "bloom_filter(0.01)"}

// FormatsClickHouseRow is one timing of experiment g's ClickHouse part.
type FormatsClickHouseRow struct {
	Op    string // "build" or "test"
	Index string // the TYPE clause, e.g. "tokenbf_v1(10240, 3, 0)"
	Data  string // "text" (rows of words) or "UInt64"
	Impl  string // what is timed, e.g. "AddStrings batch + MarshalBinary"
	// Rows per granule, Granules asked (1 for a build), Tokens per build
	// (tokens, n-grams or values over all rows) or queried per pass.
	Rows, Granules, Tokens int
	Bytes                  int // one granule's MarshalBinary
	// NsPerToken is the median over the repetitions: per token (n-gram,
	// value) for a build, per token per granule for a test.
	NsPerToken float64
	// Peer names the row this one is compared with, Ratio is the peer's
	// ns over this row's (NaN on the peer rows).
	Peer  string
	Ratio float64
	// Kept: granules kept over all the queries of one pass; Missed: of
	// those holding the queried token or value, how many were skipped
	// (a false negative; must be 0).
	Kept, Missed int
	// SameBytes: both implementations' granules marshal to equal bytes
	// (build), or keep the same granules (test).
	SameBytes bool
}

// clickHouseCase is one index's build or test, two ways.
type clickHouseCase struct {
	op, index, data string
	rows, granules  int
	tokens, bytes   int
	impls           [2]string // [batch, per-row or per-granule peer]
	run             [2]func() (int, error)
	ns              [2][]float64
	kept            [2]int
	missed          int
	same            bool
}

// runFormatsClickHouse is experiment g's ClickHouse rows: an untimed warm-up
// round, then max(-reps, 5) repetitions, the two implementations of each
// case alternating within each.
func runFormatsClickHouse(d *driver, c *Config, r *Results) error {
	cases, err := clickHouseCases()
	if err != nil {
		return err
	}
	reps := max(c.Reps, formatsKVMinReps)
	var total float64
	for _, cs := range cases {
		total += float64(reps+1) * 2 * float64(cs.tokens) * float64(clickHouseBuildPasses)
	}
	c.Progress.Phase(fmt.Sprintf("g: ClickHouse skip indexes %v, build %d rows, test %d granules of %d rows, %d reps",
		clickHouseIndexes, clickHouseBuildRows, clickHouseGranules, clickHouseGranuleRows, reps), total)
	for rep := -1; rep < reps; rep++ {
		for _, cs := range cases {
			for i := range cs.run {
				if err := d.ctx.Err(); err != nil {
					return err
				}
				d.what = fmt.Sprintf("g: %s %s %s, rep %d/%d", cs.op, cs.index, cs.impls[i], rep+1, reps)
				passes := 1
				if cs.op == "build" {
					passes = clickHouseBuildPasses
				}
				times := make([]float64, passes)
				for p := range times {
					t0 := time.Now()
					kept, err := cs.run[i]()
					times[p] = nsPerKey(time.Since(t0), cs.tokens*cs.granules)
					if err != nil {
						return err
					}
					cs.kept[i] = kept
				}
				if rep >= 0 {
					cs.ns[i] = append(cs.ns[i], median(times))
				}
				d.prog.Advance(float64(cs.tokens*clickHouseBuildPasses), d.what)
			}
		}
	}
	for _, cs := range cases {
		batch, peer := median(cs.ns[0]), median(cs.ns[1])
		for i, impl := range cs.impls {
			row := FormatsClickHouseRow{Op: cs.op, Index: cs.index, Data: cs.data, Impl: impl, Rows: cs.rows, Granules: cs.granules,
				Tokens: cs.tokens, Bytes: cs.bytes, NsPerToken: median(cs.ns[i]), Ratio: math.NaN(), Kept: cs.kept[i], SameBytes: cs.same}
			if i == 0 {
				row.Peer, row.Ratio, row.Missed = cs.impls[1], peer/batch, cs.missed
			}
			r.FormatsClickHouse = append(r.FormatsClickHouse, row)
		}
	}
	return nil
}

// clickHouseCases prepares every index's build and test case and checks
// them once, untimed: equal bytes for the builds, no skipped granule that
// holds its token for the tests.
func clickHouseCases() ([]*clickHouseCase, error) {
	vocab := clickHouseVocab()
	text := clickHouseRows(vocab, clickHouseBuildRows, 1)
	values := clickHouseValues(clickHouseBuildRows, 1)
	var cases []*clickHouseCase
	for _, typ := range clickHouseIndexes {
		ix, err := clickhouse.ParseIndex(typ)
		if err != nil {
			return nil, err
		}
		b := clickHouseBuild(ix, typ, text, values)
		t, err := clickHouseTest(ix, typ, vocab)
		if err != nil {
			return nil, err
		}
		var out [2][]byte
		for i, run := range b.run {
			if _, err := run(); err != nil {
				return nil, err
			}
			out[i] = b.lastBytes[i]
		}
		b.same, b.bytes = bytes.Equal(out[0], out[1]), len(out[0])
		cases = append(cases, &b.clickHouseCase, t)
	}
	return cases, nil
}

// clickHouseBuildCase is a build case that keeps each implementation's last
// marshalled granule.
type clickHouseBuildCase struct {
	clickHouseCase
	lastBytes [2][]byte
}

// clickHouseBuild is one granule of clickHouseBuildRows rows built from
// scratch and marshalled: text rows for the text indexes, UInt64 values
// for bloom_filter.
func clickHouseBuild(ix *clickhouse.Index, typ string, text [][]byte, values []uint64) *clickHouseBuildCase {
	b := &clickHouseBuildCase{clickHouseCase: clickHouseCase{op: "build", index: typ, rows: clickHouseBuildRows, granules: 1}}
	// build times a fresh granule, filled by add, then marshalled.
	build := func(i int, add func(*clickhouse.Granule)) func() (int, error) {
		return func() (int, error) {
			g := ix.NewGranule(1)
			add(g)
			var err error
			b.lastBytes[i], err = g.AppendBinary(b.lastBytes[i][:0])
			return 0, err
		}
	}
	if ix.Kind() == clickhouse.BloomFilterIndex {
		b.data, b.tokens = "UInt64", len(values)
		b.impls = [2]string{"AddUint64s batch + MarshalBinary", "AddUint64 per row + MarshalBinary"}
		b.run[0] = build(0, func(g *clickhouse.Granule) { g.AddUint64s(0, values) })
		b.run[1] = build(1, func(g *clickhouse.Granule) {
			for _, v := range values {
				g.AddUint64(0, v)
			}
		})
		return b
	}
	b.data, b.tokens = "text", clickHouseTokens(ix, text)
	b.impls = [2]string{"AddStrings batch + MarshalBinary", "AddString per row + MarshalBinary"}
	b.run[0] = build(0, func(g *clickhouse.Granule) { g.AddStrings(0, text) })
	b.run[1] = build(1, func(g *clickhouse.Granule) {
		for _, row := range text {
			g.AddString(0, row)
		}
	})
	return b
}

// clickHouseTokens counts what a text index hashes over rows: tokens for
// tokenbf_v1, n-grams for ngrambf_v1.
func clickHouseTokens(ix *clickhouse.Index, rows [][]byte) int {
	n := 0
	for _, row := range rows {
		if ix.Kind() == clickhouse.NgramBF {
			n += len(clickhouse.Ngrams(row, ix.N()))
		} else {
			n += len(clickhouse.Tokens(row))
		}
	}
	return n
}
