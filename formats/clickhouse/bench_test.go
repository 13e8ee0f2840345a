package clickhouse

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchRows returns n rows of text: words from a vocabulary of 5000, 2-8
// words a row, separated by spaces and punctuation.
func benchRows(n int, seed uint64) (rows [][]byte, tokens int) {
	r := rand.New(rand.NewPCG(seed, 1))
	vocab := make([][]byte, 5000)
	for i := range vocab {
		w := make([]byte, 3+r.IntN(10))
		for j := range w {
			w[j] = "abcdefghijklmnopqrstuvwxyz0123456789"[r.IntN(36)]
		}
		vocab[i] = w
	}
	for range n {
		var row []byte
		k := 2 + r.IntN(7)
		for j := range k {
			if j > 0 {
				row = append(row, " ,./-"[r.IntN(5)])
			}
			row = append(row, vocab[r.IntN(len(vocab))]...)
		}
		rows = append(rows, row)
		tokens += k
	}
	return rows, tokens
}

// benchValues returns n random UInt64 values and a buffer for their hashes.
func benchValues(n int) (vals, hashes []uint64) {
	r := rand.New(rand.NewPCG(2, 2))
	vals = make([]uint64, n)
	for i := range vals {
		vals[i] = r.Uint64()
	}
	return vals, make([]uint64, n)
}

func countNgrams(rows [][]byte, n int) int {
	c := 0
	for _, r := range rows {
		refNgrams(r, n, func([]byte) { c++ })
	}
	return c
}

// BenchmarkBuild builds one granule's filter from 8192 rows: the scalar
// reference (ClickHouse's code: two seeded hashes per token, a division per
// probe) against the package's batch AddStrings / AddUint64s. Reported as
// ns per token (n-gram, value).
func BenchmarkBuild(b *testing.B) {
	rows, tokens := benchRows(8192, 1)
	for _, typ := range []string{"tokenbf_v1(10240, 3, 0)", "ngrambf_v1(3, 10240, 3, 0)"} {
		ix, _ := ParseIndex(typ)
		per := tokens
		if ix.kind == NgramBF {
			per = countNgrams(rows, ix.n)
		}
		b.Run(ix.kind.String()+"/scalar", func(b *testing.B) {
			for b.Loop() {
				refTextGranule(ix, rows)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*per), "ns/token")
		})
		b.Run(ix.kind.String()+"/batch", func(b *testing.B) {
			g := ix.NewGranule(1)
			for b.Loop() {
				g.filters[0].Reset()
				g.AddStrings(0, rows)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*per), "ns/token")
		})
	}
	ix, _ := ParseIndex("bloom_filter(0.01)")
	r := rand.New(rand.NewPCG(2, 2))
	vals := make([]uint64, 8192)
	for i := range vals {
		vals[i] = r.Uint64()
	}
	b.Run("bloom_filter/scalar", func(b *testing.B) {
		hs := make([]uint64, len(vals))
		for b.Loop() {
			for i, v := range vals {
				hs[i] = IntHash64(v)
			}
			refBloomFilterGranule(ix, hs)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(vals)), "ns/token")
	})
	b.Run("bloom_filter/batch", func(b *testing.B) {
		for b.Loop() {
			g := ix.NewGranule(1)
			g.AddUint64s(0, vals)
			g.build()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(vals)), "ns/token")
	})
}

// BenchmarkTest asks one token of 1024 granules: the scalar reference (two
// seeded hashes and a division per probe, per granule) against a Probe
// prepared once and Select. Reported as ns per token per granule.
func BenchmarkTest(b *testing.B) {
	ix, _ := ParseIndex("tokenbf_v1(10240, 3, 0)")
	const ng = 1024
	var gs []*Granule
	var refs []*refBloom
	for i := range ng {
		rows, _ := benchRows(256, uint64(i)+10)
		g := ix.NewGranule(1)
		g.AddStrings(0, rows)
		gs = append(gs, g)
		refs = append(refs, refTextGranule(ix, rows))
	}
	queries, _ := benchRows(64, 99)
	var toks [][]byte
	for _, q := range queries {
		toks = append(toks, Tokens(q)...)
	}
	b.Run(fmt.Sprintf("tokenbf_v1/%d-granules/scalar", ng), func(b *testing.B) {
		n := 0
		for b.Loop() {
			for _, t := range toks {
				for _, f := range refs {
					f.find(t)
				}
				n++
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*ng), "ns/token")
	})
	b.Run(fmt.Sprintf("tokenbf_v1/%d-granules/batch", ng), func(b *testing.B) {
		out := make([]bool, ng)
		n := 0
		for b.Loop() {
			for _, t := range toks {
				Select(gs, ix.ProbeToken(0, t), out)
				n++
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*ng), "ns/token")
	})
}
