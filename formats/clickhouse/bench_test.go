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

// noiseRows returns rows as long as rows, of random bytes from alphabet:
// text whose tokens or n-grams rarely repeat.
func noiseRows(rows [][]byte, alphabet string) [][]byte {
	r := rand.New(rand.NewPCG(5, 5))
	out := make([][]byte, len(rows))
	for i, row := range rows {
		b := make([]byte, len(row))
		for j := range b {
			b[j] = alphabet[r.IntN(len(alphabet))]
		}
		out[i] = b
	}
	return out
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

// buildCase is one index built from the benchmark data two ways: by the
// scalar reference (ClickHouse's code line by line: two seeded hashes per
// token, a division per probe, a hash map of distinct values) and by the
// package's batch adds (AddStrings, AddUint64s).
type buildCase struct {
	name       string // index=<TYPE clause>/data=<data>
	per        int    // tokens, n-grams or values per build
	ref, batch func()
}

// buildCases builds one granule's filter from 8192 rows: for the text
// indexes, rows of words from a vocabulary of 5000 (data=text) and rows
// whose tokens or n-grams rarely repeat (data=noise: random letters, digits
// and separators for tokenbf_v1, random printable ASCII for ngrambf_v1);
// for bloom_filter, 8192 random UInt64 values.
func buildCases() []buildCase {
	text, _ := benchRows(8192, 1)
	const alnum = "abcdefghijklmnopqrstuvwxyz0123456789"
	words := noiseRows(text, alnum+alnum+" ,./-")
	var printable []byte
	for c := byte(0x20); c < 0x7f; c++ {
		printable = append(printable, c)
	}
	bytesNoise := noiseRows(text, string(printable))
	var out []buildCase
	for _, c := range []struct {
		typ, data string
		rows      [][]byte
	}{
		{"tokenbf_v1(10240,3,0)", "text", text}, {"tokenbf_v1(10240,3,0)", "noise", words},
		{"tokenbf_v1(8192,4,0)", "text", text},
		{"ngrambf_v1(3,10240,3,0)", "text", text}, {"ngrambf_v1(3,10240,3,0)", "noise", bytesNoise},
	} {
		ix, _ := ParseIndex(c.typ)
		per := 0
		for _, r := range c.rows {
			if ix.kind == NgramBF {
				refNgrams(r, ix.n, func([]byte) { per++ })
			} else {
				refSplit(r, func([]byte) { per++ })
			}
		}
		g := ix.NewGranule(1)
		rows := c.rows
		out = append(out, buildCase{"index=" + c.typ + "/data=" + c.data, per,
			func() { refTextGranule(ix, rows) },
			func() {
				g.filters[0].Reset()
				g.AddStrings(0, rows)
			}})
	}
	ix, _ := ParseIndex("bloom_filter(0.01)")
	vals, hs := benchValues(8192)
	out = append(out, buildCase{"index=bloom_filter(0.01)/data=uint64", len(vals),
		func() {
			for i, v := range vals {
				hs[i] = IntHash64(v)
			}
			refBloomFilterGranule(ix, hs)
		},
		func() {
			g := ix.NewGranule(1)
			g.AddUint64s(0, vals)
			g.build()
		}})
	return out
}

// BenchmarkBuild times the build cases, reference and batch, reported as
// ns per token (n-gram, value); compare the two with
// benchstat -col /impl.
func BenchmarkBuild(b *testing.B) {
	for _, c := range buildCases() {
		for _, impl := range []struct {
			name string
			run  func()
		}{{"reference", c.ref}, {"batch", c.batch}} {
			b.Run(c.name+"/impl="+impl.name, func(b *testing.B) {
				for b.Loop() {
					impl.run()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*c.per), "ns/token")
			})
		}
	}
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
