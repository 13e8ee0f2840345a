package hadoop

import "io"

// BloomFilter is org.apache.hadoop.util.bloom.BloomFilter: vectorSize bits,
// nbHash positions per key from Hadoop's hash chain (see Positions).
type BloomFilter struct {
	shape
	bits bitvec
}

// NewBloomFilter is Hadoop's BloomFilter(vectorSize, nbHash, hashType):
// an empty filter. vectorSize and nbHash must be in [1, 2^31-1].
func NewBloomFilter(vectorSize, nbHash int, h HashType) (*BloomFilter, error) {
	s, err := newShape(vectorSize, nbHash, h)
	if err != nil {
		return nil, err
	}
	return &BloomFilter{shape: s, bits: newBitvec(s.vectorSize)}, nil
}

var errZeroBloom = paramErr("BloomFilter: zero value, use NewBloomFilter or ReadBloomFilter")

// Add records key. An empty key is an error, as in Hadoop.
func (f *BloomFilter) Add(key []byte) error {
	if f.bits == nil {
		return errZeroBloom
	}
	if len(key) == 0 {
		return errEmptyKey
	}
	f.bits.add(f.shape, key)
	return nil
}

// Test is Hadoop's membershipTest: true if every position of key is set.
// An empty key, which Hadoop rejects with an exception, is never a member.
func (f *BloomFilter) Test(key []byte) bool {
	if f.bits == nil || len(key) == 0 {
		return false
	}
	return f.bits.test(f.shape, key)
}

func (f *BloomFilter) combinable(o *BloomFilter, op string) error {
	if o == nil {
		o = &BloomFilter{}
	}
	return f.shape.combinable(o.shape, f.bits != nil && o.bits != nil, "BloomFilter", op)
}

// And keeps the bits set in both f and o (Hadoop's and). The filters must
// have the same vectorSize, nbHash and hash type.
func (f *BloomFilter) And(o *BloomFilter) error {
	if err := f.combinable(o, "And"); err != nil {
		return err
	}
	f.bits.and(o.bits)
	return nil
}

// Or sets the bits set in o (Hadoop's or).
func (f *BloomFilter) Or(o *BloomFilter) error {
	if err := f.combinable(o, "Or"); err != nil {
		return err
	}
	f.bits.or(o.bits)
	return nil
}

// Xor flips the bits set in o (Hadoop's xor).
func (f *BloomFilter) Xor(o *BloomFilter) error {
	if err := f.combinable(o, "Xor"); err != nil {
		return err
	}
	f.bits.xor(o.bits)
	return nil
}

// Not flips all vectorSize bits (Hadoop's not). A zero value stays empty.
func (f *BloomFilter) Not() { f.bits.not(f.vectorSize) }

// WriteTo writes Hadoop's BloomFilter Writable: the 13-byte header, then
// ceil(vectorSize/8) bytes, least significant bit first.
func (f *BloomFilter) WriteTo(w io.Writer) (int64, error) {
	if f.bits == nil {
		return 0, errZeroBloom
	}
	wr := newWriter(w)
	f.shape.write(wr)
	f.bits.write(wr, f.shape)
	return wr.done()
}

// ReadBloomFilter reads what BloomFilter.write wrote, in the current or
// the old unversioned layout, and nothing past it.
func ReadBloomFilter(r io.Reader) (*BloomFilter, error) {
	rd := &reader{r: r}
	return readBloom(rd)
}

func readBloom(rd *reader) (*BloomFilter, error) {
	s, err := readShape(rd)
	if err != nil {
		return nil, err
	}
	b, err := readBitvec(rd, s)
	if err != nil {
		return nil, err
	}
	return &BloomFilter{shape: s, bits: b}, nil
}
