package parquet

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/fprstat"
)

// The files in ../../testdata/parquet come from apache/parquet-testing; their
// README gives provenance, license and what each holds.
func readTestdata(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join("..", "..", "testdata", "parquet", name))
}

// The 14 values of the .parquet files' column, all members.
var parquetValues = []string{"Hello", "This is", "a", "test", "How", "are you", "doing ", "today",
	"the quick", "brown fox", "jumps", "over", "the lazy", "dog"}

func TestParquetMRBloomFilterBin(t *testing.T) {
	data, err := readTestdata("bloom_filter.xxhash.bin")
	if err != nil {
		t.Fatal(err)
	}
	r := bytes.NewReader(data)
	f, err := Read(r)
	if err != nil {
		t.Fatal(err)
	}
	if r.Len() != 0 || f.NumBytes() != 1024 {
		t.Fatalf("%d bytes left, %d-byte filter", r.Len(), f.NumBytes())
	}
	for _, s := range []string{"hello", "parquet", "bloom", "filter"} {
		if !f.TestString(s) {
			t.Errorf("%q absent", s)
		}
	}
	if f.TestString("Hello") {
		t.Error(`"Hello" present`)
	}
	if got := f.setBits(); got != 32 {
		t.Errorf("%d bits set, README says 32", got)
	}
	// Our writer reproduces the file byte for byte from the four values.
	g, _ := New(1024)
	for _, s := range []string{"hello", "parquet", "bloom", "filter"} {
		g.AddString(s)
	}
	out, _ := g.MarshalBinary()
	if !bytes.Equal(out, data) {
		t.Error("New + AddString + MarshalBinary differs from parquet-mr's file")
	}
}

func TestParquetOldFormatRejected(t *testing.T) {
	data, err := readTestdata("bloom_filter.bin")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Read(bytes.NewReader(data)); !errors.Is(err, engine.ErrFormat) {
		t.Fatalf("old-format file: %v, want ErrFormat", err)
	}
}

// bloomLocation is a column chunk's bloom_filter_offset and _length (-1
// when not set).
type bloomLocation struct{ offset, length int64 }

// parquetBloomLocations walks the Thrift compact FileMetaData in a Parquet
// file's footer (parquet-format parquet.thrift: FileMetaData.row_groups =
// 4, RowGroup.columns = 1, ColumnChunk.meta_data = 3,
// ColumnMetaData.bloom_filter_offset = 14 and bloom_filter_length = 15)
// and returns every column chunk's bloom filter location.
func parquetBloomLocations(file []byte) ([]bloomLocation, error) {
	if len(file) < 12 || string(file[len(file)-4:]) != "PAR1" {
		return nil, fmt.Errorf("not a Parquet file")
	}
	n := int(binary.LittleEndian.Uint32(file[len(file)-8:]))
	if n > len(file)-8 {
		return nil, fmt.Errorf("footer length %d", n)
	}
	t := newThriftReader(bytes.NewReader(file[len(file)-8-n : len(file)-8]))
	var out []bloomLocation
	err := structFields(t, func(id int16, typ byte) error {
		if id != 4 || typ != tcList {
			return t.skip(typ, false, 1)
		}
		return listStructs(t, func() error { // RowGroup
			return structFields(t, func(id int16, typ byte) error {
				if id != 1 || typ != tcList {
					return t.skip(typ, false, 2)
				}
				return listStructs(t, func() error { // ColumnChunk
					return structFields(t, func(id int16, typ byte) error {
						if id != 3 || typ != tcStruct {
							return t.skip(typ, false, 3)
						}
						loc := bloomLocation{-1, -1}
						err := structFields(t, func(id int16, typ byte) error { // ColumnMetaData
							switch {
							case id == 14 && typ == tcI64:
								v, err := t.zigzag()
								loc.offset = v
								return err
							case id == 15 && typ == tcI32:
								v, err := t.zigzag()
								loc.length = v
								return err
							}
							return t.skip(typ, false, 4)
						})
						out = append(out, loc)
						return err
					})
				})
			})
		})
	})
	return out, err
}

func structFields(t *thriftReader, field func(id int16, typ byte) error) error {
	var id int16
	for {
		typ, fid, err := t.fieldHeader(id)
		if err != nil || typ == tcStop {
			return err
		}
		id = fid
		if err := field(fid, typ); err != nil {
			return err
		}
	}
}

func listStructs(t *thriftReader, elem func() error) error {
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
	if et != tcStruct {
		return fmt.Errorf("list of type %d, want structs", et)
	}
	for ; n > 0; n-- {
		if err := elem(); err != nil {
			return err
		}
	}
	return nil
}

func TestParquetFilesColumnBloomFilters(t *testing.T) {
	for _, c := range []struct {
		name           string
		offset, length int64 // the README's figures, checked against the footer
		numBytes       int
	}{
		{"data_index_bloom_encoding_stats.parquet", 192, -1, 1024},
		{"data_index_bloom_encoding_with_length.parquet", 253, 2064, 2048},
	} {
		file, err := readTestdata(c.name)
		if err != nil {
			t.Fatal(err)
		}
		locs, err := parquetBloomLocations(file)
		if err != nil {
			t.Fatalf("%s: footer: %v", c.name, err)
		}
		if len(locs) != 1 || locs[0].offset != c.offset || locs[0].length != c.length {
			t.Fatalf("%s: bloom filter locations %v, README says offset %d length %d", c.name, locs, c.offset, c.length)
		}
		r := bytes.NewReader(file[locs[0].offset:])
		f, err := Read(r)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if f.NumBytes() != c.numBytes {
			t.Errorf("%s: %d bytes", c.name, f.NumBytes())
		}
		if consumed := int64(len(file)) - locs[0].offset - int64(r.Len()); c.length >= 0 && consumed != c.length {
			t.Errorf("%s: read %d bytes, bloom_filter_length %d", c.name, consumed, c.length)
		}
		if got := f.setBits(); got != 112 {
			t.Errorf("%s: %d bits set, README says 112", c.name, got)
		}
		for _, v := range parquetValues {
			if !f.TestString(v) {
				t.Errorf("%s: member %q absent", c.name, v)
			}
		}
		// Non-members: the rate must fit the model for 14 values.
		const trials = 200_000
		fp := 0
		for i := range trials {
			if f.TestString(fmt.Sprintf("absent value %d", i)) {
				fp++
			}
		}
		model := f.ModelFPR(uint64(len(parquetValues)))
		lo, hi := fprstat.BinomialBounds(trials, model, fprstat.Z999)
		t.Logf("%s: %d false positives of %d (model %.5f%%)", c.name, fp, trials, 100*model)
		if float64(fp) < lo || float64(fp) > hi {
			t.Errorf("%s: %d false positives of %d, model gives [%.0f, %.0f]", c.name, fp, trials, lo, hi)
		}
	}
}
