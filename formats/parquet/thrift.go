package parquet

import (
	"errors"
	"io"

	"github.com/filterengine/filterengine/internal/errs"
)

// A minimal reader and writer of the Thrift compact protocol
// (github.com/apache/thrift, doc/specs/thrift-compact-protocol.md), enough
// for Parquet's BloomFilterHeader (parquet-format src/main/thrift/
// parquet.thrift):
//
//	struct BloomFilterHeader {
//	  1: required i32 numBytes;
//	  2: required BloomFilterAlgorithm algorithm;     // union { 1: SplitBlockAlgorithm BLOCK }
//	  3: required BloomFilterHash hash;               // union { 1: XxHash XXHASH }
//	  4: required BloomFilterCompression compression; // union { 1: Uncompressed UNCOMPRESSED }
//	}
//
// Every other field, of any type and nesting, is skipped, fields may come
// in any order, and a repeated field keeps its last value, as Thrift's
// generated readers do.

// Compact protocol type codes.
const (
	tcStop    = 0
	tcTrue    = 1
	tcFalse   = 2
	tcByte    = 3
	tcI16     = 4
	tcI32     = 5
	tcI64     = 6
	tcDouble  = 7
	tcBinary  = 8
	tcList    = 9
	tcSet     = 10
	tcMap     = 11
	tcStruct  = 12
	tcUUID    = 13
	maxDepth  = 64 // Thrift's default recursion limit
	skipChunk = 4096
)

// thriftReader reads the compact protocol from a byte source, counting the
// bytes consumed. It reads exactly what the header spans, never ahead.
type thriftReader struct {
	r io.ByteReader
	n int64
}

// byteReader adapts an io.Reader that is not an io.ByteReader by reading
// one byte at a time, so nothing past the header is consumed.
type byteReader struct {
	r   io.Reader
	buf [1]byte
}

func (b *byteReader) ReadByte() (byte, error) {
	_, err := io.ReadFull(b.r, b.buf[:])
	return b.buf[0], err
}

func newThriftReader(r io.Reader) *thriftReader {
	br, ok := r.(io.ByteReader)
	if !ok {
		br = &byteReader{r: r}
	}
	return &thriftReader{r: br}
}

func headerErr(err error, what string) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errs.FormatErrorf("parquet bloom filter header: truncated in %s", what)
	}
	return errs.FormatErrorf("parquet bloom filter header: %s: %v", what, err)
}

func (t *thriftReader) byte() (byte, error) {
	c, err := t.r.ReadByte()
	if err == nil {
		t.n++
	}
	return c, err
}

func (t *thriftReader) uvarint() (uint64, error) {
	var x uint64
	for shift := uint(0); shift < 70; shift += 7 {
		c, err := t.byte()
		if err != nil {
			return 0, err
		}
		if shift == 63 && c > 1 {
			return 0, errors.New("varint overflows 64 bits")
		}
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return x, nil
		}
	}
	return 0, errors.New("varint longer than 10 bytes")
}

func (t *thriftReader) zigzag() (int64, error) {
	u, err := t.uvarint()
	return int64(u>>1) ^ -int64(u&1), err
}

// discard consumes n bytes without keeping them.
func (t *thriftReader) discard(n uint64) error {
	for ; n > 0; n-- {
		if _, err := t.byte(); err != nil {
			return err
		}
	}
	return nil
}

// fieldHeader reads a field header; id is the previous field's id on
// entry. It returns type tcStop at the end of the struct.
func (t *thriftReader) fieldHeader(prev int16) (typ byte, id int16, err error) {
	c, err := t.byte()
	if err != nil {
		return 0, 0, err
	}
	typ = c & 0x0f
	if typ == tcStop {
		return tcStop, 0, nil
	}
	if delta := int16(c >> 4); delta != 0 {
		return typ, prev + delta, nil
	}
	v, err := t.zigzag()
	if err != nil {
		return 0, 0, err
	}
	if v < -32768 || v > 32767 {
		return 0, 0, errors.New("field id out of range")
	}
	return typ, int16(v), nil
}

// skip consumes one value of type typ; inList says booleans take a byte.
func (t *thriftReader) skip(typ byte, inList bool, depth int) error {
	if depth > maxDepth {
		return errors.New("nesting deeper than 64")
	}
	switch typ {
	case tcTrue, tcFalse:
		if inList {
			_, err := t.byte()
			return err
		}
		return nil
	case tcByte:
		_, err := t.byte()
		return err
	case tcI16, tcI32, tcI64:
		_, err := t.uvarint()
		return err
	case tcDouble:
		return t.discard(8)
	case tcUUID:
		return t.discard(16)
	case tcBinary:
		n, err := t.uvarint()
		if err != nil {
			return err
		}
		return t.discard(n)
	case tcList, tcSet:
		c, err := t.byte()
		if err != nil {
			return err
		}
		n, et := uint64(c>>4), c&0x0f
		if n == 15 {
			if n, err = t.uvarint(); err != nil {
				return err
			}
		}
		if n > 0 && !validElem(et) {
			return errors.New("invalid list element type")
		}
		for ; n > 0; n-- {
			if err := t.skip(et, true, depth+1); err != nil {
				return err
			}
		}
		return nil
	case tcMap:
		n, err := t.uvarint()
		if err != nil || n == 0 {
			return err
		}
		c, err := t.byte()
		if err != nil {
			return err
		}
		kt, vt := c>>4, c&0x0f
		if !validElem(kt) || !validElem(vt) {
			return errors.New("invalid map element type")
		}
		for ; n > 0; n-- {
			if err := t.skip(kt, true, depth+1); err != nil {
				return err
			}
			if err := t.skip(vt, true, depth+1); err != nil {
				return err
			}
		}
		return nil
	case tcStruct:
		return t.skipStruct(depth + 1)
	}
	return errors.New("invalid field type")
}

func validElem(t byte) bool { return t >= tcTrue && t <= tcUUID }

func (t *thriftReader) skipStruct(depth int) error {
	if depth > maxDepth {
		return errors.New("nesting deeper than 64")
	}
	var id int16
	for {
		typ, fid, err := t.fieldHeader(id)
		if err != nil {
			return err
		}
		if typ == tcStop {
			return nil
		}
		id = fid
		if err := t.skip(typ, false, depth); err != nil {
			return err
		}
	}
}

// unionMember reads a union and reports whether its member 1 (an empty
// struct in each of the three unions) is set.
func (t *thriftReader) unionMember() (bool, error) {
	var id int16
	set := false
	for {
		typ, fid, err := t.fieldHeader(id)
		if err != nil {
			return false, err
		}
		if typ == tcStop {
			return set, nil
		}
		id = fid
		if fid == 1 && typ == tcStruct {
			set = true
		}
		if err := t.skip(typ, false, 1); err != nil {
			return false, err
		}
	}
}

// bloomHeader is the decoded BloomFilterHeader.
type bloomHeader struct {
	numBytes                     int32
	hasNumBytes                  bool
	algorithm, hash, compression int8 // 0 absent, 1 the supported member, 2 another member
}

func (t *thriftReader) header() (h bloomHeader, err error) {
	var id int16
	for {
		typ, fid, err := t.fieldHeader(id)
		if err != nil {
			return h, err
		}
		if typ == tcStop {
			return h, nil
		}
		id = fid
		switch {
		case fid == 1 && typ == tcI32:
			v, err := t.zigzag()
			if err != nil {
				return h, err
			}
			if v < -1<<31 || v >= 1<<31 {
				return h, errors.New("numBytes out of i32 range")
			}
			h.numBytes, h.hasNumBytes = int32(v), true
		case fid >= 2 && fid <= 4 && typ == tcStruct:
			ok, err := t.unionMember()
			if err != nil {
				return h, err
			}
			v := int8(2)
			if ok {
				v = 1
			}
			switch fid {
			case 2:
				h.algorithm = v
			case 3:
				h.hash = v
			case 4:
				h.compression = v
			}
		default:
			if err := t.skip(typ, false, 1); err != nil {
				return h, err
			}
		}
	}
}

// appendHeader appends the canonical header for numBytes: the four fields
// in order with short field headers, each union's member 1 an empty
// struct, as parquet-mr, parquet-rs and arrow write it.
func appendHeader(dst []byte, numBytes int32) []byte {
	dst = append(dst, 0x10|tcI32)
	u := uint32(numBytes<<1) ^ uint32(numBytes>>31)
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	dst = append(dst, byte(u))
	for range 3 {
		dst = append(dst, 0x10|tcStruct, 0x10|tcStruct, tcStop, tcStop)
	}
	return append(dst, tcStop)
}
