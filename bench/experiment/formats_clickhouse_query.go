package experiment

import "github.com/filterengine/filterengine/formats/clickhouse"

// clickHouseTest is one query pass: clickHouseQueries tokens (values), each
// asked of clickHouseGranules granules of clickHouseGranuleRows rows, by
// Select with a Probe prepared once per token and by the per-granule
// MayContain call. The text indexes are asked words of the rows'
// vocabulary (hasToken); bloom_filter is asked values, half of them held by
// one granule each.
func clickHouseTest(ix *clickhouse.Index, typ string, vocab [][]byte) (*clickHouseCase, error) {
	cs := &clickHouseCase{op: "test", index: typ, rows: clickHouseGranuleRows, granules: clickHouseGranules, tokens: clickHouseQueries}
	gs := make([]*clickhouse.Granule, clickHouseGranules)
	holds := make([][]bool, clickHouseQueries) // holds[q][g]: granule g has query q
	for q := range holds {
		holds[q] = make([]bool, clickHouseGranules)
	}
	out := make([]bool, clickHouseGranules)
	text := ix.Kind() != clickhouse.BloomFilterIndex
	var words [][]byte
	var values []uint64
	if text {
		cs.data = "text"
		cs.impls = [2]string{"Select, ProbeToken prepared once", "MayContainToken per granule"}
		index := map[string]int{}
		for q := range clickHouseQueries {
			w := vocab[q*len(vocab)/clickHouseQueries]
			words = append(words, w)
			index[string(w)] = q
		}
		for i := range gs {
			rows := clickHouseRows(vocab, clickHouseGranuleRows, 100+uint64(i))
			gs[i] = ix.NewGranule(1)
			gs[i].AddStrings(0, rows)
			for _, row := range rows {
				for _, t := range clickhouse.Tokens(row) {
					if q, ok := index[string(t)]; ok {
						holds[q][i] = true
					}
				}
			}
		}
		cs.run = clickHouseAsks(gs, words, out, func(w []byte) clickhouse.Probe { return ix.ProbeToken(0, w) },
			func(g *clickhouse.Granule, w []byte) bool { return g.MayContainToken(0, w) })
	} else {
		cs.data = "UInt64"
		cs.impls = [2]string{"Select, ProbeUint64 prepared once", "MayContainUint64 per granule"}
		absent := clickHouseValues(clickHouseQueries/2, 9999)
		for i := range gs {
			vs := clickHouseValues(clickHouseGranuleRows, 100+uint64(i))
			gs[i] = ix.NewGranule(1)
			gs[i].AddUint64s(0, vs)
			if i%(2*clickHouseGranules/clickHouseQueries) == 0 && len(values) < clickHouseQueries/2 {
				holds[len(values)][i] = true
				values = append(values, vs[0])
			}
		}
		values = append(values, absent...)
		cs.run = clickHouseAsks(gs, values, out, func(v uint64) clickhouse.Probe { return ix.ProbeUint64(0, v) },
			func(g *clickhouse.Granule, v uint64) bool { return g.MayContainUint64(0, v) })
	}
	// One untimed pass checks the answers (and builds the granules'
	// filters where that is lazy).
	for q := range clickHouseQueries {
		if text {
			clickhouse.Select(gs, ix.ProbeToken(0, words[q]), out)
		} else {
			clickhouse.Select(gs, ix.ProbeUint64(0, values[q]), out)
		}
		for i, kept := range out {
			if holds[q][i] && !kept {
				cs.missed++
			}
		}
	}
	for i, run := range cs.run {
		kept, err := run()
		if err != nil {
			return nil, err
		}
		cs.kept[i] = kept
	}
	cs.same = cs.kept[0] == cs.kept[1]
	return cs, nil
}

// clickHouseAsks returns a test case's two passes over the queries: Select
// with the probe prepared once per query, and mayContain per granule. Each
// returns the granules kept over all the queries.
func clickHouseAsks[T any](gs []*clickhouse.Granule, queries []T, out []bool,
	probe func(T) clickhouse.Probe, mayContain func(*clickhouse.Granule, T) bool) [2]func() (int, error) {
	return [2]func() (int, error){
		func() (int, error) {
			kept := 0
			for _, q := range queries {
				kept += clickhouse.Select(gs, probe(q), out)
			}
			return kept, nil
		},
		func() (int, error) {
			kept := 0
			for _, q := range queries {
				for _, g := range gs {
					if mayContain(g, q) {
						kept++
					}
				}
			}
			return kept, nil
		},
	}
}
