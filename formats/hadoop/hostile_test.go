package hadoop

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"runtime"
	"testing"

	"github.com/filterengine/filterengine/engine"
)

// readers are the four decoders, by class name.
var readers = map[string]func(io.Reader) (io.WriterTo, error){
	"BloomFilter": func(r io.Reader) (io.WriterTo, error) { return nonNil(ReadBloomFilter(r)) },
	"CountingBloomFilter": func(r io.Reader) (io.WriterTo, error) {
		return nonNil(ReadCountingBloomFilter(r))
	},
	"DynamicBloomFilter": func(r io.Reader) (io.WriterTo, error) {
		return nonNil(ReadDynamicBloomFilter(r))
	},
	"RetouchedBloomFilter": func(r io.Reader) (io.WriterTo, error) {
		return nonNil(ReadRetouchedBloomFilter(r))
	},
}

// nonNil turns a typed nil into an untyped one, so callers can compare.
func nonNil[T io.WriterTo](f T, err error) (io.WriterTo, error) {
	if err != nil {
		return nil, err
	}
	return f, nil
}

// be builds a big-endian stream from int32s, bytes and float64s.
func be(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch v := p.(type) {
		case int:
			b = binary.BigEndian.AppendUint32(b, uint32(int32(v)))
		case byte:
			b = append(b, v)
		case []byte:
			b = append(b, v...)
		case float64:
			b = binary.BigEndian.AppendUint64(b, math.Float64bits(v))
		default:
			panic("be: unsupported part")
		}
	}
	return b
}

// header is a current-layout filter header.
func header(nbHash int, h byte, vectorSize int) []byte { return be(-1, nbHash, h, vectorSize) }

// allocated returns the bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestHostileStreams(t *testing.T) {
	const maxInt = 1<<31 - 1
	ones := bytes.Repeat([]byte{0xff}, 13) // the bits of a 100-bit filter
	for _, c := range []struct {
		name, class string
		data        []byte
	}{
		{"empty", "BloomFilter", nil},
		{"three bytes", "BloomFilter", []byte{0xff, 0xff, 0xff}},
		{"version 0", "BloomFilter", be(0, 4, byte(0), 100)},
		{"version -2", "BloomFilter", be(-2, 4, byte(0), 100)},
		{"nbHash 0", "BloomFilter", append(header(0, 0, 100), ones...)},
		{"nbHash negative", "BloomFilter", append(header(-3, 0, 100), ones...)},
		{"hash type 2", "BloomFilter", append(header(4, 2, 100), ones...)},
		{"hash type -1", "BloomFilter", append(header(4, 0xff, 100), ones...)},
		{"vectorSize 0", "BloomFilter", header(4, 0, 0)},
		{"vectorSize negative", "BloomFilter", append(header(4, 0, -100), ones...)},
		{"vectorSize 2^31-1 in 20 bytes", "BloomFilter", append(header(4, 1, maxInt), 1, 2, 3, 4, 5, 6, 7)},
		{"legacy vectorSize 2^31-1", "BloomFilter", be(4, maxInt, []byte{1, 2, 3})},
		{"bits truncated", "BloomFilter", append(header(4, 0, 100), ones[:12]...)},
		{"counting 2^31-1 counters in 20 bytes", "CountingBloomFilter", append(header(4, 0, maxInt), 1, 2, 3, 4, 5, 6, 7)},
		{"counting truncated word", "CountingBloomFilter", append(header(4, 0, 100), make([]byte, 8*7-1)...)},
		{"dynamic 2^31-1 rows", "DynamicBloomFilter", be(header(4, 0, 100), 10, 3, maxInt, header(4, 0, 100), ones)},
		{"dynamic 0 rows", "DynamicBloomFilter", be(header(4, 0, 100), 10, 0, 0)},
		{"dynamic negative rows", "DynamicBloomFilter", be(header(4, 0, 100), 10, 0, -1)},
		{"dynamic negative record count", "DynamicBloomFilter", be(header(4, 0, 100), 10, -1, 1, header(4, 0, 100), ones)},
		{"dynamic row of another size", "DynamicBloomFilter", be(header(4, 0, 100), 10, 0, 1, header(4, 0, 96), ones[:12])},
		{"dynamic row of another hash", "DynamicBloomFilter", be(header(4, 0, 100), 10, 0, 1, header(4, 1, 100), ones)},
		{"dynamic huge row in 40 bytes", "DynamicBloomFilter", be(header(4, 0, maxInt), 10, 0, 1, header(4, 0, maxInt), ones)},
		{"retouched 2^31-1 positions", "RetouchedBloomFilter", append(header(4, 0, maxInt), ones...)},
		{"retouched lists truncated", "RetouchedBloomFilter", be(header(1, 0, 8), byte(0xff), 0, 0, 0)},
		{"retouched negative count", "RetouchedBloomFilter", be(header(1, 0, 1), byte(1), -1)},
		{"retouched 2^31-1 keys", "RetouchedBloomFilter", be(header(1, 0, 1), byte(1), maxInt, 1, []byte{7}, 1.0)},
		{"retouched key of 2^31-1 bytes", "RetouchedBloomFilter", be(header(1, 0, 1), byte(1), 1, maxInt, []byte{7, 8, 9})},
		{"retouched negative key length", "RetouchedBloomFilter", be(header(1, 0, 1), byte(1), 1, -4, []byte{7, 8, 9})},
		{"retouched empty key", "RetouchedBloomFilter", be(header(1, 0, 1), byte(1), 1, 0, 1.0, 0, 0.0)},
		{"retouched ratios truncated", "RetouchedBloomFilter", be(header(1, 0, 2), byte(3), 0, 0, 0, 0, 0.5)},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			n := allocated(func() { _, err = readers[c.class](bytes.NewReader(c.data)) })
			if !errors.Is(err, engine.ErrFormat) {
				t.Errorf("%s: %v, want an ErrFormat error", c.class, err)
			}
			if limit := uint64(64<<10 + 64*len(c.data)); n > limit {
				t.Errorf("%s: allocated %d bytes for %d input bytes", c.class, n, len(c.data))
			}
		})
	}
}

// Every proper prefix of a golden stream is an error; the whole stream is
// not, and the reader stops at its end.
func TestTruncatedGolden(t *testing.T) {
	_, cases := loadGolden(t)
	tried := map[string]int{}
	for _, c := range cases {
		data := c.bin(t)
		if len(data) > 4000 || tried[c.Class] >= 4 {
			continue
		}
		tried[c.Class]++
		read := readers[c.Class]
		for n := range len(data) {
			if _, err := read(bytes.NewReader(data[:n])); !errors.Is(err, engine.ErrFormat) {
				t.Fatalf("%s cut to %d of %d bytes: %v, want ErrFormat", c.Name, n, len(data), err)
			}
		}
		r := bytes.NewReader(append(data, 0xAB))
		if _, err := read(r); err != nil || r.Len() != 1 {
			t.Fatalf("%s: %v, %d bytes left; want success and the trailing byte unread", c.Name, err, r.Len())
		}
	}
	if len(tried) != len(readers) {
		t.Fatalf("tried %v, want every class", tried)
	}
}

// A reader error other than EOF is returned as it is.
func TestReaderError(t *testing.T) {
	boom := errors.New("boom")
	for class, read := range readers {
		if _, err := read(io.MultiReader(bytes.NewReader([]byte{0xff, 0xff}), errReader{boom})); !errors.Is(err, boom) {
			t.Errorf("%s: %v, want the reader's error", class, err)
		}
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }
