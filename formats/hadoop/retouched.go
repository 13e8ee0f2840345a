package hadoop

import (
	"io"
	"math/rand/v2"
)

// RetouchedBloomFilter is org.apache.hadoop.util.bloom.RetouchedBloomFilter:
// a BloomFilter that also records, per bit position, the keys added there
// and the false positives reported there (each with a weight), so that
// SelectiveClearing can clear a chosen bit to drop a false positive, at
// the price of false negatives. It keeps two lists and a ratio per
// position (56 bytes each plus the keys), as Hadoop does.
type RetouchedBloomFilter struct {
	bloom BloomFilter
	pos   []retouchedPos
	rng   *javaRandom
}

// retouchedPos is Hadoop's fpVector[i], keyVector[i] and ratio[i].
type retouchedPos struct {
	fp, keys []weightedKey
	ratio    float64
}

// weightedKey is org.apache.hadoop.util.bloom.Key: bytes and a weight.
type weightedKey struct {
	b []byte
	w float64
}

// equal is Key.equals: same bytes, and weights whose difference truncates
// to the int 0 ((int)(w1 - w2) == 0): weights less than 1 apart, or NaN.
func (k weightedKey) equal(o weightedKey) bool {
	if string(k.b) != string(o.b) {
		return false
	}
	d := k.w - o.w
	return d != d || (d > -1 && d < 1)
}

// NewRetouchedBloomFilter is Hadoop's RetouchedBloomFilter(vectorSize,
// nbHash, hashType).
func NewRetouchedBloomFilter(vectorSize, nbHash int, h HashType) (*RetouchedBloomFilter, error) {
	f, err := NewBloomFilter(vectorSize, nbHash, h)
	if err != nil {
		return nil, err
	}
	return &RetouchedBloomFilter{bloom: *f, pos: make([]retouchedPos, vectorSize)}, nil
}

var errZeroRetouched = paramErr("RetouchedBloomFilter: zero value, use NewRetouchedBloomFilter or ReadRetouchedBloomFilter")

// VectorSize, NbHash and HashType are the filter's parameters.
func (r *RetouchedBloomFilter) VectorSize() int { return r.bloom.VectorSize() }

// NbHash is the number of hash positions per key.
func (r *RetouchedBloomFilter) NbHash() int { return r.bloom.NbHash() }

// HashType is the hash the filter uses.
func (r *RetouchedBloomFilter) HashType() HashType { return r.bloom.HashType() }

// Add is AddWeighted(key, 1), Hadoop's add(new Key(key)).
func (r *RetouchedBloomFilter) Add(key []byte) error { return r.AddWeighted(key, 1) }

// AddWeighted is Hadoop's add(new Key(key, weight)): it sets key's bits and
// appends the key to the key list of each of its positions, twice where
// two positions coincide. The filter keeps its own copy of key.
func (r *RetouchedBloomFilter) AddWeighted(key []byte, weight float64) error {
	k, err := r.record(key, weight)
	if err != nil {
		return err
	}
	r.bloom.bits.add(r.bloom.shape, key)
	r.eachPosition(key, func(p int) { r.pos[p].keys = append(r.pos[p].keys, k) })
	return nil
}

// AddFalsePositive is Hadoop's addFalsePositive(new Key(key, weight)): it
// appends key to the false-positive list of each of its positions. It
// neither tests membership nor changes a bit.
func (r *RetouchedBloomFilter) AddFalsePositive(key []byte, weight float64) error {
	k, err := r.record(key, weight)
	if err != nil {
		return err
	}
	r.eachPosition(key, func(p int) { r.pos[p].fp = append(r.pos[p].fp, k) })
	return nil
}

func (r *RetouchedBloomFilter) record(key []byte, weight float64) (weightedKey, error) {
	if r.pos == nil {
		return weightedKey{}, errZeroRetouched
	}
	if len(key) == 0 {
		return weightedKey{}, errEmptyKey
	}
	return weightedKey{b: append([]byte(nil), key...), w: weight}, nil
}

func (r *RetouchedBloomFilter) eachPosition(key []byte, fn func(p int)) {
	s := r.bloom.shape
	seed := int32(0)
	for i := int32(0); i < s.nbHash; i++ {
		seed = s.hash.hash32(key, seed)
		fn(s.position(seed))
	}
}

// Test is Hadoop's membershipTest, as BloomFilter's.
func (r *RetouchedBloomFilter) Test(key []byte) bool { return r.bloom.Test(key) }

// TestKeys sets out[i] to Test(keys[i]) and returns how many are true.
// out must be at least as long as keys.
func (r *RetouchedBloomFilter) TestKeys(keys [][]byte, out []bool) int {
	return r.bloom.TestKeys(keys, out)
}

// SetRandomSeed makes the RANDOM scheme draw from java.util.Random(seed),
// so a Hadoop run whose Random had that seed replays draw for draw. Without
// it the first RANDOM clearing seeds the generator at random, as Hadoop's
// new Random() does.
func (r *RetouchedBloomFilter) SetRandomSeed(seed int64) { r.rng = newJavaRandom(seed) }

func (r *RetouchedBloomFilter) random() *javaRandom {
	if r.rng == nil {
		r.rng = newJavaRandom(rand.Int64())
	}
	return r.rng
}

// And, Or, Xor and Not are the BloomFilter operations Hadoop's
// RetouchedBloomFilter inherits: they change the bits only, never the key
// lists or ratios. The filters must have the same shape.
func (r *RetouchedBloomFilter) And(o *RetouchedBloomFilter) error { return r.bloom.And(o.bits()) }

// Or sets the bits set in o; see And.
func (r *RetouchedBloomFilter) Or(o *RetouchedBloomFilter) error { return r.bloom.Or(o.bits()) }

// Xor flips the bits set in o; see And.
func (r *RetouchedBloomFilter) Xor(o *RetouchedBloomFilter) error { return r.bloom.Xor(o.bits()) }

// Not flips all vectorSize bits; see And.
func (r *RetouchedBloomFilter) Not() { r.bloom.Not() }

func (r *RetouchedBloomFilter) bits() *BloomFilter {
	if r == nil {
		return nil
	}
	return &r.bloom
}

// WriteTo writes Hadoop's RetouchedBloomFilter Writable: the BloomFilter
// Writable; for each position its false positives, then for each position
// its keys (each list an int count and Keys: int length, bytes, double
// weight); then vectorSize ratio doubles.
func (r *RetouchedBloomFilter) WriteTo(w io.Writer) (int64, error) {
	if r.pos == nil {
		return 0, errZeroRetouched
	}
	wr := newWriter(w)
	r.bloom.shape.write(wr)
	r.bloom.bits.write(wr, r.bloom.shape)
	for i := range r.pos {
		writeKeys(wr, r.pos[i].fp)
	}
	for i := range r.pos {
		writeKeys(wr, r.pos[i].keys)
	}
	for i := range r.pos {
		wr.float64(r.pos[i].ratio)
	}
	return wr.done()
}

func writeKeys(w *writer, l []weightedKey) {
	w.int32(int32(len(l)))
	for _, k := range l {
		w.int32(int32(len(k.b)))
		w.bytes(k.b)
		w.float64(k.w)
	}
}

// ReadRetouchedBloomFilter reads what RetouchedBloomFilter.write wrote, and
// nothing past it. Negative list counts or key lengths and empty keys,
// which Hadoop never writes, are errors.
func ReadRetouchedBloomFilter(r io.Reader) (*RetouchedBloomFilter, error) {
	rd := &reader{r: r}
	b, err := readBloom(rd)
	if err != nil {
		return nil, err
	}
	f := &RetouchedBloomFilter{bloom: *b}
	vs := int(b.vectorSize)
	// The positions grow as their bytes arrive: each takes at least 16.
	for i := 0; i < vs && rd.err == nil; i++ {
		f.pos = append(f.pos, retouchedPos{fp: readKeys(rd)})
	}
	for i := 0; i < vs && rd.err == nil; i++ {
		f.pos[i].keys = readKeys(rd)
	}
	for i := 0; i < vs && rd.err == nil; i++ {
		f.pos[i].ratio = rd.float64()
	}
	if rd.err != nil {
		return nil, rd.err
	}
	return f, nil
}

func readKeys(rd *reader) []weightedKey {
	n := rd.int32()
	if rd.err == nil && n < 0 {
		rd.err = formatErr("RetouchedBloomFilter: negative key count %d", n)
	}
	var l []weightedKey
	for j := int32(0); j < n && rd.err == nil; j++ {
		size := rd.int32()
		if rd.err == nil && size <= 0 {
			rd.err = formatErr("RetouchedBloomFilter: key length %d", size)
		}
		k := weightedKey{b: rd.bytes(int(size))}
		k.w = rd.float64()
		l = append(l, k)
	}
	return l
}
