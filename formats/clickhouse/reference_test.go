package clickhouse

// The scalar reference: ClickHouse's code line by line (Interpreters/
// BloomFilter.cpp, ITokenizer.cpp), with two seeded CityHash64 calls per
// token and a division per probe. Tests check the package against it and
// the benchmarks measure the package against it.

type refBloom struct {
	size, hashes, seed uint64
	filter             []uint64
}

func newRefBloom(size, hashes, seed uint64) *refBloom {
	return &refBloom{size: size, hashes: hashes, seed: seed, filter: make([]uint64, (size+7)/8)}
}

func (f *refBloom) add(data []byte) {
	hash1 := CityHash64WithSeed(data, f.seed)
	hash2 := CityHash64WithSeed(data, 845897321*f.seed+217728422)
	for i := uint64(0); i < f.hashes; i++ {
		pos := (hash1 + i*hash2 + i*i) % (8 * f.size)
		f.filter[pos/64] |= 1 << (pos % 64)
	}
}

func (f *refBloom) find(data []byte) bool {
	hash1 := CityHash64WithSeed(data, f.seed)
	hash2 := CityHash64WithSeed(data, 845897321*f.seed+217728422)
	for i := uint64(0); i < f.hashes; i++ {
		pos := (hash1 + i*hash2 + i*i) % (8 * f.size)
		if f.filter[pos/64]&(1<<(pos%64)) == 0 {
			return false
		}
	}
	return true
}

func (f *refBloom) addHashWithSeed(hash, seed uint64) {
	pos := Hash128to64(hash, seed) % (8 * f.size)
	f.filter[pos/64] |= 1 << (pos % 64)
}

func (f *refBloom) findHashWithSeed(hash, seed uint64) bool {
	pos := Hash128to64(hash, seed) % (8 * f.size)
	return f.filter[pos/64]&(1<<(pos%64)) != 0
}

func (f *refBloom) bytes() []byte {
	out := make([]byte, f.size)
	for i := range out {
		out[i] = byte(f.filter[i/8] >> (8 * (i % 8)))
	}
	return out
}

func refIsSep(c byte) bool {
	return c < 0x80 && !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')
}

// refSplit is SplitTokenExtractor::nextInString's loop.
func refSplit(data []byte, fn func([]byte)) {
	pos := 0
	for pos < len(data) {
		start, length := pos, 0
		for pos < len(data) {
			if refIsSep(data[pos]) {
				if length > 0 {
					break
				}
				pos++
				start = pos
			} else {
				pos++
				length++
			}
		}
		if length == 0 {
			return
		}
		fn(data[start : start+length])
	}
}

func refSeqLength(c byte) int {
	if c < 0x80 || c >= 0xF8 {
		return 1
	}
	n := 0
	for c&0x80 != 0 {
		n++
		c <<= 1
	}
	if n == 1 { // a continuation byte
		return 1
	}
	return n
}

// refNgrams is NgramsTokenizer::nextInString's loop.
func refNgrams(data []byte, n int, fn func([]byte)) {
	pos := 0
	for pos < len(data) {
		start, length, cps := pos, 0, 0
		for ; cps < n && start+length < len(data); cps++ {
			length += refSeqLength(data[start+length])
		}
		length = min(length, len(data)-start)
		pos += refSeqLength(data[pos])
		if cps != n {
			return
		}
		fn(data[start : start+length])
	}
}

// refTextGranule builds one column's filter of a text index from rows.
func refTextGranule(ix *Index, rows [][]byte) *refBloom {
	f := newRefBloom(uint64(ix.sizeBytes), ix.hashes, ix.seed)
	for _, r := range rows {
		if ix.kind == TokenBF {
			refSplit(r, f.add)
		} else {
			refNgrams(r, ix.n, f.add)
		}
	}
	return f
}

// refBloomFilterGranule builds a one-column bloom_filter granule from value
// hashes: distinct hashes, VarUInt(total), k bits per hash.
func refBloomFilterGranule(ix *Index, hashes []uint64) []byte {
	set := map[uint64]bool{}
	for _, h := range hashes {
		set[h] = true
	}
	total := uint64(len(set))
	size := (uint64(ix.bitsRow)*total + 7) / 8
	f := newRefBloom(size, uint64(ix.k), 0)
	for h := range set {
		for i := 0; i < ix.k; i++ {
			f.addHashWithSeed(h, bfHashSeeds[i])
		}
	}
	var out []byte
	for v := total; ; v >>= 7 {
		if v < 0x80 {
			out = append(out, byte(v))
			break
		}
		out = append(out, byte(v)|0x80)
	}
	return append(out, f.bytes()...)
}
