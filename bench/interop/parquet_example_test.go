package interop_test

import (
	"bytes"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	arrowpq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/filterengine/filterengine/formats/parquet"
)

// Probing the bloom filter of a Parquet column chunk: the footer gives the
// chunk's bloom_filter_offset, Read reads the header and bitset there,
// and the filter answers for values hashed as Parquet hashes them (XXH64
// of the plain-encoded bytes). A "false" means the row group can be
// skipped without reading it.
func Example_parquetColumnChunk() {
	// A Parquet file with a bloom-filtered string column, written by arrow.
	schema := arrow.NewSchema([]arrow.Field{{Name: "city", Type: arrow.BinaryTypes.String}}, nil)
	b := array.NewStringBuilder(memory.DefaultAllocator)
	b.AppendValues([]string{"Lisbon", "Porto", "Braga", "Faro"}, nil)
	col := b.NewArray()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
	tbl := array.NewTableFromRecords(schema, []arrow.RecordBatch{rec})
	props := arrowpq.NewWriterProperties(arrowpq.WithBloomFilterEnabledFor("city", true), arrowpq.WithBloomFilterNDVFor("city", 4))
	var buf bytes.Buffer
	if err := pqarrow.WriteTable(tbl, &buf, 1024, props, pqarrow.DefaultWriterProps()); err != nil {
		panic(err)
	}
	data := bytes.NewReader(buf.Bytes()) // an *os.File works the same way

	// The footer locates the filter of row group 0, column 0.
	rdr, err := file.NewParquetReader(data)
	if err != nil {
		panic(err)
	}
	chunk, err := rdr.MetaData().RowGroup(0).ColumnChunk(0)
	if err != nil {
		panic(err)
	}
	off := chunk.BloomFilterOffset()

	// Read reads the Thrift header and the bitset from there.
	f, err := parquet.Read(io.NewSectionReader(data, off, data.Size()-off))
	if err != nil {
		panic(err)
	}
	for _, city := range []string{"Porto", "Faro", "Madrid"} {
		fmt.Printf("%s may be in row group 0: %v\n", city, f.TestString(city))
	}
	// Output:
	// Porto may be in row group 0: true
	// Faro may be in row group 0: true
	// Madrid may be in row group 0: false
}
