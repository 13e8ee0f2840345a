package hadoop

import "io"

// CountingBloomFilter is org.apache.hadoop.util.bloom.CountingBloomFilter:
// vectorSize 4-bit counters, sixteen to a 64-bit word (counter i is bits
// 4*(i%16)..4*(i%16)+3 of word i/16), that stick at 15: a counter that
// reached 15 is never incremented or decremented again.
type CountingBloomFilter struct {
	shape
	buckets []uint64
}

const bucketMax = 15

// NewCountingBloomFilter is Hadoop's CountingBloomFilter(vectorSize,
// nbHash, hashType): vectorSize counters at zero.
func NewCountingBloomFilter(vectorSize, nbHash int, h HashType) (*CountingBloomFilter, error) {
	s, err := newShape(vectorSize, nbHash, h)
	if err != nil {
		return nil, err
	}
	return &CountingBloomFilter{shape: s, buckets: make([]uint64, s.countingWords())}, nil
}

// countingWords is Hadoop's buckets2words: ((vectorSize-1)>>>4)+1.
func (s shape) countingWords() int { return int(uint32(s.vectorSize-1)>>4) + 1 }

var errZeroCounting = paramErr("CountingBloomFilter: zero value, use NewCountingBloomFilter or ReadCountingBloomFilter")

func (f *CountingBloomFilter) bucket(p int) uint64 {
	return f.buckets[p>>4] >> ((uint(p) & 15) << 2) & bucketMax
}

func (f *CountingBloomFilter) setBucket(p int, v uint64) {
	shift := (uint(p) & 15) << 2
	f.buckets[p>>4] = f.buckets[p>>4]&^(bucketMax<<shift) | v<<shift
}

func (f *CountingBloomFilter) writable(key []byte) error {
	if f.buckets == nil {
		return errZeroCounting
	}
	if len(key) == 0 {
		return errEmptyKey
	}
	return nil
}

// Add increments the counter at each of key's nbHash positions (twice
// where two positions coincide), except counters already at 15.
func (f *CountingBloomFilter) Add(key []byte) error {
	if err := f.writable(key); err != nil {
		return err
	}
	seed := int32(0)
	for i := int32(0); i < f.nbHash; i++ {
		seed = f.hash.hash32(key, seed)
		p := f.position(seed)
		if v := f.bucket(p); v < bucketMax {
			f.setBucket(p, v+1)
		}
	}
	return nil
}

// Delete is Hadoop's delete: an error, and no change, unless Test(key);
// otherwise it decrements each of key's counters that holds 1 to 14. A
// saturated counter (15) stays 15, so deleting a key that saturated one
// leaves it a member.
func (f *CountingBloomFilter) Delete(key []byte) error {
	if err := f.writable(key); err != nil {
		return err
	}
	if !f.Test(key) {
		return paramErr("CountingBloomFilter.Delete: key is not a member")
	}
	seed := int32(0)
	for i := int32(0); i < f.nbHash; i++ {
		seed = f.hash.hash32(key, seed)
		p := f.position(seed)
		if v := f.bucket(p); v >= 1 && v < bucketMax {
			f.setBucket(p, v-1)
		}
	}
	return nil
}

// Test is Hadoop's membershipTest: every counter of key is non-zero. An
// empty key is never a member.
func (f *CountingBloomFilter) Test(key []byte) bool {
	return f.ApproximateCount(key) > 0
}

// ApproximateCount is Hadoop's approximateCount: the smallest of key's
// counters, at most 15. It is 0 for an empty key.
func (f *CountingBloomFilter) ApproximateCount(key []byte) int {
	if f.buckets == nil || len(key) == 0 {
		return 0
	}
	least := uint64(bucketMax)
	seed := int32(0)
	for i := int32(0); i < f.nbHash && least > 0; i++ {
		seed = f.hash.hash32(key, seed)
		least = min(least, f.bucket(f.position(seed)))
	}
	return int(least)
}

func (f *CountingBloomFilter) combinable(o *CountingBloomFilter, op string) error {
	if o == nil {
		o = &CountingBloomFilter{}
	}
	return f.shape.combinable(o.shape, f.buckets != nil && o.buckets != nil, "CountingBloomFilter", op)
}

// And is Hadoop's and: the bitwise AND of the packed counter words, so
// counters combine bit by bit (2 and 1 give 0), not as a minimum. Hadoop
// defines neither xor nor not for this class.
func (f *CountingBloomFilter) And(o *CountingBloomFilter) error {
	if err := f.combinable(o, "And"); err != nil {
		return err
	}
	for i := range f.buckets {
		f.buckets[i] &= o.buckets[i]
	}
	return nil
}

// Or is Hadoop's or: the bitwise OR of the packed counter words (2 or 1
// give 3), not a maximum or a sum.
func (f *CountingBloomFilter) Or(o *CountingBloomFilter) error {
	if err := f.combinable(o, "Or"); err != nil {
		return err
	}
	for i := range f.buckets {
		f.buckets[i] |= o.buckets[i]
	}
	return nil
}

// WriteTo writes Hadoop's CountingBloomFilter Writable: the header, then
// ((vectorSize-1)>>>4)+1 big-endian longs of packed counters.
func (f *CountingBloomFilter) WriteTo(w io.Writer) (int64, error) {
	if f.buckets == nil {
		return 0, errZeroCounting
	}
	wr := newWriter(w)
	f.shape.write(wr)
	wr.words(f.buckets, 8*len(f.buckets), true)
	return wr.done()
}

// ReadCountingBloomFilter reads what CountingBloomFilter.write wrote, and
// nothing past it. Counter bits past vectorSize in the last word are kept
// as read, as Hadoop keeps them.
func ReadCountingBloomFilter(r io.Reader) (*CountingBloomFilter, error) {
	rd := &reader{r: r}
	s, err := readShape(rd)
	if err != nil {
		return nil, err
	}
	b := rd.words(8*s.countingWords(), true)
	if rd.err != nil {
		return nil, rd.err
	}
	return &CountingBloomFilter{shape: s, buckets: b}, nil
}
