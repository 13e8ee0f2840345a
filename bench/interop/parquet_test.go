package interop

// Cross-checks of parquet.Filter, hashing.XXH64 and asm.XXH64Uint64s against
// the real implementations: github.com/apache/arrow-go/v18's parquet bloom
// filter (in memory and inside Parquet files written and read by arrow)
// and github.com/cespare/xxhash/v2, the XXH64 arrow itself uses.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	arrowpq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/cespare/xxhash/v2"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/formats/parquet"
	"github.com/filterengine/filterengine/internal/hashing"
	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

// parquetKeySets are the random key sets of the property tests: empty, single,
// duplicates, long keys, bytes of 0x80 and above, and a large random set.
func parquetKeySets(seed uint64) map[string][][]byte {
	r := rand.New(rand.NewPCG(seed, 77))
	randKey := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	sets := map[string][][]byte{"empty": nil, "single": {[]byte("only")}, "empty key": {{}}}
	var dup, long, high, random [][]byte
	for i := range 50 {
		k := randKey(1 + i%9)
		dup = append(dup, k, k, bytes.Clone(k))
	}
	for i := range 40 {
		long = append(long, randKey(31+i*37))
	}
	for range 300 {
		k := randKey(1 + r.IntN(20))
		for j := range k {
			k[j] |= 0x80
		}
		high = append(high, k)
	}
	for range 5000 {
		random = append(random, randKey(r.IntN(64)))
	}
	sets["duplicates"], sets["long"], sets["high bytes"], sets["random"] = dup, long, high, random
	return sets
}

// arrowChecker is the CheckHash arrow's block-split filter has beyond the
// BloomFilterBuilder interface.
type arrowChecker interface{ CheckHash(uint64) bool }

func arrowBitset(t *testing.T, b metadata.BloomFilterBuilder) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := b.WriteTo(&buf, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestXXH64AgainstCespare(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 300 {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		if got, want := hashing.XXH64(b, 0), xxhash.Sum64(b); got != want {
			t.Fatalf("XXH64(%d bytes) = %#x, cespare %#x", n, got, want)
		}
		if got, want := hashing.XXH64String(string(b)), xxhash.Sum64String(string(b)); got != want {
			t.Fatalf("XXH64String(%d bytes) = %#x, cespare %#x", n, got, want)
		}
	}
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000} {
			ks := make([]uint64, n)
			for i := range ks {
				ks[i] = r.Uint64()
			}
			hs := make([]uint64, n)
			asm.XXH64Uint64s(hs, ks)
			var b [8]byte
			for i, k := range ks {
				binary.LittleEndian.PutUint64(b[:], k)
				want := xxhash.Sum64(b[:])
				if hs[i] != want || hashing.XXH64Uint64(k) != want {
					t.Fatalf("n=%d: XXH64 of %#x: batch %#x, scalar %#x, cespare %#x", n, k, hs[i], hashing.XXH64Uint64(k), want)
				}
			}
		}
	})
}

// Identical inserts give identical bits, in both libraries and through
// every kernel; each answers for the other's filter exactly as the other
// does.
func TestSBBFAgainstArrowInMemory(t *testing.T) {
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		for name, keys := range parquetKeySets(3) {
			for _, numBytes := range []int{32, 1024, parquet.OptimalNumBytes(uint64(len(keys)), 0.01), 1 << 20} {
				ours, err := parquet.New(numBytes)
				if err != nil {
					t.Fatal(err)
				}
				theirs := metadata.NewBloomFilter(uint32(numBytes), uint32(numBytes), memory.DefaultAllocator)
				hs := make([]uint64, len(keys))
				for i, k := range keys {
					hs[i] = xxhash.Sum64(k)
					theirs.InsertHash(hs[i])
				}
				ours.AddKeys(keys)
				if !bytes.Equal(ours.Bitset(), arrowBitset(t, theirs)) {
					t.Fatalf("%s, %d bytes: AddKeys and arrow's InsertHash give different bits", name, numBytes)
				}
				// Our batch add into a fresh filter, then arrow reading ours.
				batch, _ := parquet.New(numBytes)
				batch.AddHashes(hs)
				if !batch.Equal(ours) {
					t.Fatalf("%s: AddHashes differs from AddKeys", name)
				}
				r := rand.New(rand.NewPCG(uint64(numBytes), 5))
				probes := append([]uint64(nil), hs...)
				for range 2000 {
					probes = append(probes, r.Uint64())
				}
				out := make([]bool, len(probes))
				ours.TestHashes(probes, out)
				c := theirs.(arrowChecker)
				for i, h := range probes {
					if want := c.CheckHash(h); out[i] != want || ours.TestHash(h) != want {
						t.Fatalf("%s: hash %#x: ours batch %v single %v, arrow %v", name, h, out[i], ours.TestHash(h), want)
					}
				}
			}
		}
	})
	// Sizing: OptimalNumBytes is arrow's choice (its writer's, below 1 MiB of
	// maximum), seen through the filter NewBloomFilterFromNDVAndFPP builds.
	for _, ndv := range []uint32{0, 1, 26, 27, 30, 1000, 12345, 1 << 20, 1e7} {
		for _, fpp := range []float64{0.5, 0.1, 0.01, 0.001, 1e-6} {
			b := metadata.NewBloomFilterFromNDVAndFPP(ndv, fpp, parquet.MaxBytes, memory.DefaultAllocator)
			if got := parquet.OptimalNumBytes(uint64(ndv), fpp); int64(got) != b.Size() {
				t.Errorf("OptimalNumBytes(%d, %v) = %d, arrow %d", ndv, fpp, got, b.Size())
			}
			b.Release()
		}
	}
}

// arrowWriteParquet writes one BYTE_ARRAY column "v" of values with arrow's
// pqarrow writer and a bloom filter sized for ndv at 1%.
func arrowWriteParquet(t testing.TB, values [][]byte, ndv int64) []byte {
	t.Helper()
	mem := memory.DefaultAllocator
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.BinaryTypes.Binary}}, nil)
	bld := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
	for _, v := range values {
		bld.Append(v)
	}
	arr := bld.NewArray()
	defer arr.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
	defer rec.Release()
	tbl := array.NewTableFromRecords(schema, []arrow.RecordBatch{rec})
	defer tbl.Release()
	props := arrowpq.NewWriterProperties(
		arrowpq.WithBloomFilterEnabledFor("v", true),
		arrowpq.WithBloomFilterNDVFor("v", ndv),
		arrowpq.WithBloomFilterFPPFor("v", 0.01),
	)
	var buf bytes.Buffer
	if err := pqarrow.WriteTable(tbl, &buf, int64(max(1, len(values))), props, pqarrow.DefaultWriterProps()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// arrowBloomLocation returns column 0's bloom filter offset and length in row
// group 0, read from the footer by arrow.
func arrowBloomLocation(t testing.TB, data []byte) (int64, int32) {
	t.Helper()
	rdr, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	cc, err := rdr.MetaData().RowGroup(0).ColumnChunk(0)
	if err != nil {
		t.Fatal(err)
	}
	return cc.BloomFilterOffset(), cc.BloomFilterLength()
}

// arrowFileFilter reads column 0's bloom filter of row group 0 with arrow.
func arrowFileFilter(t testing.TB, data []byte) metadata.BloomFilter {
	t.Helper()
	rdr, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	rg, err := rdr.GetBloomFilterReader().RowGroup(0)
	if err != nil {
		t.Fatal(err)
	}
	bf, err := rg.GetColumnBloomFilter(0)
	if err != nil || bf == nil {
		t.Fatalf("arrow reads no bloom filter: %v", err)
	}
	return bf
}

// Arrow writes Parquet files, we read their filters; we write filters into
// the files, arrow reads ours.
func TestSBBFAgainstArrowParquetFiles(t *testing.T) {
	for name, keys := range parquetKeySets(9) {
		if len(keys) == 0 {
			continue // arrow writes no filter for an empty column chunk
		}
		ndv := int64(len(keys))
		data := arrowWriteParquet(t, keys, ndv)
		off, length := arrowBloomLocation(t, data)
		if off <= 0 {
			t.Fatalf("%s: no bloom_filter_offset", name)
		}
		r := bytes.NewReader(data[off:])
		ours, err := parquet.Read(r)
		if err != nil {
			t.Fatalf("%s: Read at %d: %v", name, off, err)
		}
		if length > 0 && int64(len(data))-off-int64(r.Len()) != int64(length) {
			t.Errorf("%s: Read consumed %d bytes, bloom_filter_length %d", name, int64(len(data))-off-int64(r.Len()), length)
		}
		if ours.NumBytes() != parquet.OptimalNumBytes(uint64(ndv), 0.01) {
			t.Errorf("%s: arrow wrote %d bytes, OptimalNumBytes says %d", name, ours.NumBytes(), parquet.OptimalNumBytes(uint64(ndv), 0.01))
		}
		want, _ := parquet.New(ours.NumBytes())
		want.AddKeys(keys)
		if !want.Equal(ours) {
			t.Fatalf("%s: the file's filter is not the one we build from the same values", name)
		}
		// Our filter, holding extra keys so its bits differ from arrow's,
		// spliced in place of arrow's: arrow must read it and answer as we do.
		mine := want.Clone()
		extra := parquetKeySets(10)["random"][:200]
		mine.AddKeys(extra)
		enc, _ := mine.MarshalBinary()
		if length > 0 && len(enc) != int(length) {
			t.Fatalf("%s: our encoding is %d bytes, the file's %d", name, len(enc), length)
		}
		spliced := bytes.Clone(data)
		copy(spliced[off:], enc)
		bf := arrowFileFilter(t, spliced)
		probes := append(append([][]byte{}, keys...), extra...)
		for i := range 3000 {
			probes = append(probes, fmt.Appendf(nil, "probe %d", i))
		}
		for _, p := range probes {
			h := xxhash.Sum64(p)
			if got, want := bf.CheckHash(h), mine.Test(p); got != want {
				t.Fatalf("%s: arrow answers %v for %q in our filter, we answer %v", name, got, p, want)
			}
		}
		for _, k := range append(keys, extra...) {
			if !bf.CheckHash(xxhash.Sum64(k)) {
				t.Fatalf("%s: arrow misses %q in our filter", name, k)
			}
		}
	}
}

// Our hostile-input guarantees hold on the truncated tails of real files.
func TestReadSBBFTruncatedArrowFile(t *testing.T) {
	data := arrowWriteParquet(t, parquetKeySets(4)["random"], 5000)
	off, _ := arrowBloomLocation(t, data)
	enc := data[off:]
	total := 16 + parquet.OptimalNumBytes(5000, 0.01)
	for _, n := range []int{0, 1, 5, 15, 16, 17, total / 2, total - 1} {
		if _, err := parquet.Read(io.LimitReader(bytes.NewReader(enc), int64(n))); err == nil {
			t.Errorf("accepted the first %d bytes of a %d-byte filter", n, total)
		}
	}
}
