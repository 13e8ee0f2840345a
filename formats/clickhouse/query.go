package clickhouse

import "math"

// Probe is a prepared question to an index column: the bits a granule's
// filter must have for a value to be possibly there. Prepare it once and ask
// it of many granules with MayContain or Select. A zero Probe, and a probe
// the index cannot answer (a number asked of a text index, a hasToken asked
// of bloom_filter), keeps every granule, as ClickHouse's index analysis does
// for a condition it cannot use.
type Probe struct {
	ix    *Index
	col   int
	use   bool
	never bool // the condition is false for every row (x = NaN)
	// text indexes: the (h1, h2) pair of every token of the value; a value
	// with no token keeps every granule, as ClickHouse's empty query filter
	// does.
	pairs []uint64
	// bloom_filter: the value's hash mixed with each of the k seeds
	// (Hash128to64(hash, seed_i)), so a granule costs k reductions.
	mixed []uint64
}

// ProbeToken prepares what hasToken(column, token) asks of a granule. For
// tokenbf_v1 it needs every token of token (hasToken's needle is one token;
// ClickHouse tokenizes it all the same), for ngrambf_v1 every n-gram of it.
// bloom_filter does not answer hasToken.
func (ix *Index) ProbeToken(col int, token []byte) Probe {
	if ix.kind == BloomFilterIndex {
		return Probe{}
	}
	return ix.textProbe(col, token)
}

// ProbeString prepares what column = s (and each element of column IN
// (...)) asks: every token (tokenbf_v1) or n-gram (ngrambf_v1) of s, or the
// CityHash64 of s (bloom_filter). ClickHouse rewrites s = ” to empty(s)
// unless optimize_empty_string_comparisons = 0; no Bloom index answers
// empty(s).
func (ix *Index) ProbeString(col int, s []byte) Probe {
	if ix.kind == BloomFilterIndex {
		return ix.ProbeHash(col, CityHash64(s))
	}
	return ix.textProbe(col, s)
}

func (ix *Index) textProbe(col int, s []byte) Probe {
	p := Probe{ix: ix, col: col, use: true}
	seed2 := seedGenA*ix.seed + seedGenB
	add := func(t []byte) {
		c := CityHash64(t) - k2
		p.pairs = append(p.pairs, Hash128to64(c, ix.seed), Hash128to64(c, seed2))
	}
	if ix.kind == TokenBF {
		for pos := 0; pos < len(s); {
			start, end, ok := nextToken(s, pos)
			if !ok {
				break
			}
			add(s[start:end])
			pos = end
		}
	} else {
		for pos := 0; pos < len(s); {
			end, next, ok := nextNgram(s, pos, ix.n)
			if !ok {
				break
			}
			add(s[pos:end])
			pos = next
		}
	}
	return p
}

// ProbeHash prepares column = value for a bloom_filter index by the value's
// 64-bit hash (HashUint64 and the others). Text indexes do not answer it.
func (ix *Index) ProbeHash(col int, h uint64) Probe {
	if ix.kind != BloomFilterIndex {
		return Probe{}
	}
	p := Probe{ix: ix, col: col, use: true, mixed: make([]uint64, ix.k)}
	for i, s := range bfHashSeeds[:ix.k] {
		p.mixed[i] = Hash128to64(h, s)
	}
	return p
}

// ProbeUint64 prepares column = v for a UInt64 column.
func (ix *Index) ProbeUint64(col int, v uint64) Probe { return ix.ProbeHash(col, HashUint64(v)) }

// ProbeInt64 prepares column = v for an Int64 column.
func (ix *Index) ProbeInt64(col int, v int64) Probe { return ix.ProbeHash(col, HashInt64(v)) }

// ProbeInt32 prepares column = v for an Int32 column.
func (ix *Index) ProbeInt32(col int, v int32) Probe { return ix.ProbeHash(col, HashInt32(v)) }

// ProbeFloat64 prepares column = v for a Float64 column. A NaN equals no
// value, and ClickHouse keeps no granule for column = NaN; neither does
// this probe, whatever the index.
func (ix *Index) ProbeFloat64(col int, v float64) Probe {
	if math.IsNaN(v) {
		return Probe{ix: ix, col: col, never: true}
	}
	return ix.ProbeHash(col, HashFloat64(v))
}

// ProbeFloat32 prepares column = v for a Float32 column (NaN as in
// ProbeFloat64).
func (ix *Index) ProbeFloat32(col int, v float32) Probe { return ix.ProbeFloat64(col, float64(v)) }

// HashString is the bloom_filter hash of a String value: CityHash64(s).
func HashString(s []byte) uint64 { return CityHash64(s) }

// HashUint64 is the bloom_filter hash of a UInt64 value.
func HashUint64(v uint64) uint64 { return IntHash64(v) }

// HashInt64 is the bloom_filter hash of an Int64 value.
func HashInt64(v int64) uint64 { return IntHash64(uint64(v)) }

// HashInt32 is the bloom_filter hash of an Int32 value (zero-extended).
func HashInt32(v int32) uint64 { return IntHash64(uint64(uint32(v))) }

// HashFloat64 is the bloom_filter hash of a Float64 value (and of a Float32
// value widened to Float64): IntHash64 of its bits.
func HashFloat64(v float64) uint64 { return IntHash64(math.Float64bits(v)) }

// MayContain reports whether the granule may hold the probed value: false
// means ClickHouse's index analysis skips the granule for that condition.
func (g *Granule) MayContain(p Probe) bool {
	if p.never {
		return false
	}
	if !p.use || p.ix == nil {
		return true
	}
	g.build()
	f := g.filters[p.col]
	if p.mixed != nil {
		if f == nil || f.size == 0 {
			return true
		}
		for _, m := range p.mixed {
			q := f.mod.mod(m)
			if f.words[q>>6]&(1<<(q&63)) == 0 {
				return false
			}
		}
		return true
	}
	for i := 0; i+1 < len(p.pairs); i += 2 {
		if !f.containsPair(p.pairs[i], p.pairs[i+1]) {
			return false
		}
	}
	return true
}

// MayContainToken is what hasToken(column, token) asks of this granule.
func (g *Granule) MayContainToken(col int, token []byte) bool {
	return g.MayContain(g.ix.ProbeToken(col, token))
}

// MayContainString is what column = s asks of this granule.
func (g *Granule) MayContainString(col int, s []byte) bool {
	return g.MayContain(g.ix.ProbeString(col, s))
}

// MayContainUint64 is what column = v asks of a UInt64 column.
func (g *Granule) MayContainUint64(col int, v uint64) bool {
	return g.MayContain(g.ix.ProbeUint64(col, v))
}

// MayContainInt64 is what column = v asks of an Int64 column.
func (g *Granule) MayContainInt64(col int, v int64) bool {
	return g.MayContain(g.ix.ProbeInt64(col, v))
}

// MayContainInt32 is what column = v asks of an Int32 column.
func (g *Granule) MayContainInt32(col int, v int32) bool {
	return g.MayContain(g.ix.ProbeInt32(col, v))
}

// MayContainFloat64 is what column = v asks of a Float64 column.
func (g *Granule) MayContainFloat64(col int, v float64) bool {
	return g.MayContain(g.ix.ProbeFloat64(col, v))
}

// MayContainFloat32 is what column = v asks of a Float32 column.
func (g *Granule) MayContainFloat32(col int, v float32) bool {
	return g.MayContain(g.ix.ProbeFloat32(col, v))
}

// Select asks p of every granule: out[i] (out must have len(granules)) is
// granules[i].MayContain(p); it returns how many granules are kept.
func Select(granules []*Granule, p Probe, out []bool) int {
	kept := 0
	for i, g := range granules {
		ok := g.MayContain(p)
		out[i] = ok
		if ok {
			kept++
		}
	}
	return kept
}

// SelectAny is what column IN (v1, v2, ...) asks: out[i] is true when
// granules[i] may contain any of the probes.
func SelectAny(granules []*Granule, probes []Probe, out []bool) int {
	kept := 0
	for i, g := range granules {
		ok := false
		for _, p := range probes {
			if g.MayContain(p) {
				ok = true
				break
			}
		}
		out[i] = ok
		if ok {
			kept++
		}
	}
	return kept
}
