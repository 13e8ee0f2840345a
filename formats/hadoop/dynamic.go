package hadoop

import "io"

// DynamicBloomFilter is org.apache.hadoop.util.bloom.DynamicBloomFilter:
// rows of BloomFilter bits of one shape, each taking nr keys. A key is a
// member if any row says so.
type DynamicBloomFilter struct {
	shape
	nr      int32
	current int32 // keys recorded in the last row
	rows    []bitvec
}

// NewDynamicBloomFilter is Hadoop's DynamicBloomFilter(vectorSize, nbHash,
// hashType, nr): one empty row; each row takes nr keys. nr must be at
// least 1 (Hadoop accepts less and opens a row for every key).
func NewDynamicBloomFilter(vectorSize, nbHash int, h HashType, nr int) (*DynamicBloomFilter, error) {
	s, err := newShape(vectorSize, nbHash, h)
	if err != nil {
		return nil, err
	}
	if nr < 1 || nr > 1<<31-1 {
		return nil, paramErr("DynamicBloomFilter: nr %d outside [1, 2^31-1]", nr)
	}
	return &DynamicBloomFilter{shape: s, nr: int32(nr), rows: []bitvec{newBitvec(s.vectorSize)}}, nil
}

var errZeroDynamic = paramErr("DynamicBloomFilter: zero value, use NewDynamicBloomFilter or ReadDynamicBloomFilter")

// Add records key in the last row. As in Hadoop, a row that is full (nr
// keys) gets a successor only when the next key arrives, so k*nr keys make
// k rows, the last holding nr.
func (f *DynamicBloomFilter) Add(key []byte) error {
	if f.rows == nil {
		return errZeroDynamic
	}
	if len(key) == 0 {
		return errEmptyKey
	}
	if f.current >= f.nr {
		f.rows = append(f.rows, newBitvec(f.vectorSize))
		f.current = 0
	}
	f.rows[len(f.rows)-1].add(f.shape, key)
	f.current++
	return nil
}

// Test is Hadoop's membershipTest: true if any row holds every position of
// key. An empty key is never a member (Hadoop answers true for a null Key
// and throws for an empty one; a Go slice has no null).
func (f *DynamicBloomFilter) Test(key []byte) bool {
	var buf [32]int
	return f.test(key, buf[:0])
}

// test looks for a row holding every position of key. The rows share one
// shape, so each position is hashed once, when a row first needs it, and
// reused by the rows after (Hadoop hashes the key again for every row).
func (f *DynamicBloomFilter) test(key []byte, h []int) bool {
	if len(key) == 0 {
		return false
	}
	seed := int32(0)
rows:
	for _, r := range f.rows {
		for i := range int(f.nbHash) {
			if i == len(h) {
				seed = f.hash.hash32(key, seed)
				h = append(h, f.position(seed))
			}
			if !r.get(h[i]) {
				continue rows
			}
		}
		return true
	}
	return false
}

// Rows is the number of rows (Hadoop's matrix length).
func (f *DynamicBloomFilter) Rows() int { return len(f.rows) }

// NR is the number of keys a row takes.
func (f *DynamicBloomFilter) NR() int { return int(f.nr) }

// CurrentNbRecord is the number of keys recorded in the last row.
func (f *DynamicBloomFilter) CurrentNbRecord() int { return int(f.current) }

func (f *DynamicBloomFilter) combinable(o *DynamicBloomFilter, op string) error {
	if o == nil {
		o = &DynamicBloomFilter{}
	}
	if err := f.shape.combinable(o.shape, f.rows != nil && o.rows != nil, "DynamicBloomFilter", op); err != nil {
		return err
	}
	if f.nr != o.nr || len(f.rows) != len(o.rows) {
		return paramErr("DynamicBloomFilter.%s: filters differ in nr or row count", op)
	}
	return nil
}

// And is Hadoop's and, row by row; the filters must have the same shape,
// nr and number of rows. The record count stays f's.
func (f *DynamicBloomFilter) And(o *DynamicBloomFilter) error {
	if err := f.combinable(o, "And"); err != nil {
		return err
	}
	for i, r := range f.rows {
		r.and(o.rows[i])
	}
	return nil
}

// Or is Hadoop's or, row by row, under And's conditions.
func (f *DynamicBloomFilter) Or(o *DynamicBloomFilter) error {
	if err := f.combinable(o, "Or"); err != nil {
		return err
	}
	for i, r := range f.rows {
		r.or(o.rows[i])
	}
	return nil
}

// Xor is Hadoop's xor, row by row, under And's conditions.
func (f *DynamicBloomFilter) Xor(o *DynamicBloomFilter) error {
	if err := f.combinable(o, "Xor"); err != nil {
		return err
	}
	for i, r := range f.rows {
		r.xor(o.rows[i])
	}
	return nil
}

// Not flips every row (Hadoop's not): afterwards nearly every key is a
// member.
func (f *DynamicBloomFilter) Not() {
	for _, r := range f.rows {
		r.not(f.vectorSize)
	}
}

// WriteTo writes Hadoop's DynamicBloomFilter Writable: the header, int nr,
// int current record count, int row count, then each row as a complete
// BloomFilter Writable.
func (f *DynamicBloomFilter) WriteTo(w io.Writer) (int64, error) {
	if f.rows == nil {
		return 0, errZeroDynamic
	}
	wr := newWriter(w)
	f.shape.write(wr)
	wr.int32(f.nr)
	wr.int32(f.current)
	wr.int32(int32(len(f.rows)))
	for _, r := range f.rows {
		f.shape.write(wr)
		r.write(wr, f.shape)
	}
	return wr.done()
}

// ReadDynamicBloomFilter reads what DynamicBloomFilter.write wrote, and
// nothing past it. It accepts any nr, as Hadoop does (with nr < 1 every
// Add opens a row). Beyond what Hadoop checks, it requires at least one
// row, a non-negative record count and rows of the filter's own shape,
// which is all Hadoop ever writes.
func ReadDynamicBloomFilter(r io.Reader) (*DynamicBloomFilter, error) {
	rd := &reader{r: r}
	s, err := readShape(rd)
	if err != nil {
		return nil, err
	}
	f := &DynamicBloomFilter{shape: s, nr: rd.int32(), current: rd.int32()}
	n := rd.int32()
	if rd.err != nil {
		return nil, rd.err
	}
	if n < 1 || f.current < 0 {
		return nil, formatErr("DynamicBloomFilter: %d rows, record count %d", n, f.current)
	}
	for i := int32(0); i < n; i++ {
		row, err := readBloom(rd)
		if err != nil {
			return nil, err
		}
		if row.shape != s {
			return nil, formatErr("DynamicBloomFilter: row %d has shape %+v, filter %+v", i, row.shape, s)
		}
		f.rows = append(f.rows, row.bits)
	}
	return f, nil
}
