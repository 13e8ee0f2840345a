package clickhouse

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestDivisor(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ds := []uint64{1, 2, 3, 5, 7, 8, 24, 100, 488, 81920, 1<<33 - 8, 1<<33 + 8, 1 << 63, 1<<63 + 1, math.MaxUint64}
	for range 200 {
		ds = append(ds, 8*(1+r.Uint64N(MaxFilterBytes)), r.Uint64())
	}
	xs := []uint64{0, 1, math.MaxUint64, math.MaxUint64 - 1, 1 << 63}
	for _, d := range ds {
		v := newDivisor(d)
		for _, x := range append(xs, d-1, d, d+1, 2*d-1, r.Uint64(), r.Uint64(), r.Uint64()) {
			if got, want := v.mod(x), x%d; got != want {
				t.Fatalf("%d mod %d = %d, want %d", x, d, got, want)
			}
		}
	}
}

// The package's filter against the line-by-line reference, on every size
// around word boundaries.
func TestBloomFilterMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, size := range []int{1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 100, 1000, 4096} {
		for _, hashes := range []uint64{1, 2, 3, 7} {
			seed := r.Uint64()
			f, err := NewBloomFilter(size, hashes, seed)
			if err != nil {
				t.Fatal(err)
			}
			ref := newRefBloom(uint64(size), hashes, seed)
			var keys [][]byte
			for range 50 {
				k := make([]byte, r.IntN(40))
				for i := range k {
					k[i] = byte(r.Uint32())
				}
				f.Add(k)
				ref.add(k)
				keys = append(keys, k)
				h, s := r.Uint64(), r.Uint64()
				f.AddHashWithSeed(h, s)
				ref.addHashWithSeed(h, s)
				if !f.ContainsHashWithSeed(h, s) || !ref.findHashWithSeed(h, s) {
					t.Fatal("hash with seed added tests absent")
				}
			}
			if !bytes.Equal(f.Bytes(), ref.bytes()) {
				t.Fatalf("size %d hashes %d: bytes differ from the reference", size, hashes)
			}
			for _, k := range keys {
				if !f.Contains(k) || !ref.find(k) {
					t.Fatalf("size %d: added key tests absent", size)
				}
			}
		}
	}
}

// Batch and single-value adds give the same bytes as the reference.
func TestBatchMatchesScalar(t *testing.T) {
	rows, _ := benchRows(3000, 7)
	r := rand.New(rand.NewPCG(8, 9))
	for i := range 300 { // values with UTF-8 and bytes that are not
		v := make([]byte, r.IntN(60))
		for j := range v {
			v[j] = byte(r.Uint32())
		}
		rows[i] = v
	}
	for _, typ := range []string{"tokenbf_v1(1000, 3, 5)", "ngrambf_v1(1, 333, 2, 0)", "ngrambf_v1(3, 1024, 3, 9)", "ngrambf_v1(5, 4096, 1, 0)"} {
		ix, _ := ParseIndex(typ)
		if batchOK, singleOK := textBuilds(ix, rows); !batchOK || !singleOK {
			t.Errorf("%s: batch or single adds differ from the reference", typ)
		}
	}
	ix, _ := ParseIndex("bloom_filter(0.001)")
	vals := make([]uint64, 5000)
	hs := make([]uint64, len(vals))
	for i := range vals {
		vals[i] = r.Uint64N(3000)
		hs[i] = IntHash64(vals[i])
	}
	g := ix.NewGranule(1)
	g.AddUint64s(0, vals)
	b, _ := g.MarshalBinary()
	if !bytes.Equal(b, refBloomFilterGranule(ix, hs)) {
		t.Error("bloom_filter: AddUint64s differs from the reference")
	}
}

func TestTokensAndNgrams(t *testing.T) {
	for _, s := range []string{"", "a", "  ", "hello, world", "a\xff\x80b c", "日本語 text", "x\xe4\xb8", "\xf0\x9f\x98\x80\xf8z"} {
		var ref [][]byte
		refSplit([]byte(s), func(b []byte) { ref = append(ref, b) })
		if got := Tokens([]byte(s)); len(got) != len(ref) || len(got) > 0 && !bytes.Equal(bytes.Join(got, []byte{0}), bytes.Join(ref, []byte{0})) {
			t.Errorf("Tokens(%q) = %q, want %q", s, got, ref)
		}
		for n := 1; n <= 4; n++ {
			var ref [][]byte
			refNgrams([]byte(s), n, func(b []byte) { ref = append(ref, b) })
			got := Ngrams([]byte(s), n)
			if len(got) != len(ref) || len(got) > 0 && !bytes.Equal(bytes.Join(got, []byte{0}), bytes.Join(ref, []byte{0})) {
				t.Errorf("Ngrams(%q, %d) = %q, want %q", s, n, got, ref)
			}
		}
	}
	if got := Tokens([]byte("GET /a-b?c=1")); len(got) != 5 || string(got[4]) != "1" {
		t.Errorf("Tokens = %q", got)
	}
}

func TestParseIndex(t *testing.T) {
	good := map[string]string{
		"tokenbf_v1(256, 3, 0)":                         "tokenbf_v1(256, 3, 0)",
		" TOKENBF_V1( 256 ,3,0x10 ) ":                   "tokenbf_v1(256, 3, 16)",
		"tokenbf_v1(1073741824,1,18446744073709551615)": "tokenbf_v1(1073741824, 1, 18446744073709551615)",
		"ngrambf_v1(3, 512, 2, 0)":                      "ngrambf_v1(3, 512, 2, 0)",
		"ngrambf_v1(100, 256, 2, 0)":                    "ngrambf_v1(100, 256, 2, 0)",
		"bloom_filter":                                  "bloom_filter(0.025)",
		"bloom_filter()":                                "bloom_filter(0.025)",
		"bloom_filter(1e-9)":                            "bloom_filter(1e-09)",
		"bloom_filter(0.3)":                             "bloom_filter(0.3)",
	}
	for in, want := range good {
		ix, err := ParseIndex(in)
		if err != nil || ix.String() != want {
			t.Errorf("ParseIndex(%q) = %v, %v; want %s", in, ix, err, want)
		}
	}
	// What ClickHouse 26.7 refuses (checked against chdb).
	for _, in := range []string{"", "tokenbf_v1", "tokenbf_v1(256,3)", "tokenbf_v1(0,3,0)", "tokenbf_v1(256,0,0)",
		"tokenbf_v1(1073741825,1,0)", "tokenbf_v1(256,3,-1)", "tokenbf_v1(256,3,1.5)", "tokenbf_v1(256,3,18446744073709551616)",
		"ngrambf_v1(0,256,2,0)", "ngrambf_v1(3,256,2)", "bloom_filter(0)", "bloom_filter(1)", "bloom_filter(1.5)",
		"bloom_filter(-0.1)", "bloom_filter('a')", "bloom_filter(0.5,1)", "bloom_filter(nan)", "minmax", "set(100)",
		"tokenbf_v1((256),3,0)", "tokenbf_v1(256,,0)", "bloom_filter(0.1"} {
		if ix, err := ParseIndex(in); err == nil || !errors.Is(err, ErrIndexType) {
			t.Errorf("ParseIndex(%q) = %v, %v; want an ErrIndexType error", in, ix, err)
		}
	}
}

func TestBestPractices(t *testing.T) {
	// Pinned by the goldens for 0.3, 0.024, 0.0216, 0.01, 0.001, 0.05, 0.025
	// (byte-identical granules fix bits and k); the edges of the table here.
	for _, c := range []struct {
		fpr     float64
		bits, k int
	}{{0.5, 2, 2}, {0.283, 2, 2}, {0.025, 8, 4}, {0.01, 10, 5}, {1e-9, 19, 13}, {math.NaN(), 19, 13}, {math.Inf(-1), 19, 13}} {
		if b, k := BestPractices(c.fpr); b != c.bits || k != c.k {
			t.Errorf("BestPractices(%v) = %d, %d; want %d, %d", c.fpr, b, k, c.bits, c.k)
		}
	}
}

// block wraps payload in a compressed block with a valid checksum.
func block(method byte, usize uint32, payload []byte) []byte {
	b := make([]byte, 16+blockHeader, 16+blockHeader+len(payload))
	b[16] = method
	binary.LittleEndian.PutUint32(b[17:], uint32(blockHeader+len(payload)))
	binary.LittleEndian.PutUint32(b[21:], usize)
	b = append(b, payload...)
	lo, hi := CityHash128(b[16:])
	binary.LittleEndian.PutUint64(b[0:], lo)
	binary.LittleEndian.PutUint64(b[8:], hi)
	return b
}

func TestHostileBlocks(t *testing.T) {
	ix, _ := ParseIndex("tokenbf_v1(8, 1, 0)")
	good := block(MethodNone, 8, make([]byte, 8))
	if gs, err := ix.ReadGranules(bytes.NewReader(good), 1); err != nil || len(gs) != 1 {
		t.Fatalf("a valid block: %v, %v", gs, err)
	}
	badSum := bytes.Clone(good)
	badSum[3] ^= 1
	unknown := block(0x91, 8, make([]byte, 8))
	huge := block(MethodLZ4, math.MaxUint32, []byte{0})
	past := bytes.Clone(good)
	binary.LittleEndian.PutUint32(past[17:], 1<<29) // payload past the end
	lz4Lie := block(MethodLZ4, 1000, []byte{0x10, 'a'})
	zstdBomb := block(MethodZSTD, 1<<30, []byte{0x28, 0xb5, 0x2f, 0xfd})
	short := block(MethodNone, 8, make([]byte, 7)) // 7 bytes: no whole granule
	for name, b := range map[string][]byte{"checksum": badSum, "method": unknown, "huge": huge, "past end": past,
		"lz4 size": lz4Lie, "zstd size": zstdBomb, "cut header": good[:20], "cut granule": short} {
		if _, err := ix.ReadGranules(bytes.NewReader(b), 1); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: err = %v, want ErrCorrupt", name, err)
		}
	}
	bf, _ := ParseIndex("bloom_filter")
	for name, s := range map[string][]byte{"zero total": {0}, "total past end": {0xff, 0xff, 0x03, 1, 2}, "bad varuint": bytes.Repeat([]byte{0xff}, 12)} {
		if _, err := bf.ParseGranules(s, 1); !errors.Is(err, ErrCorrupt) {
			t.Errorf("bloom_filter %s: err = %v, want ErrCorrupt", name, err)
		}
	}
}

// FuzzReadGranules: any bytes, as an .idx file of each index type, give
// granules or an error, never a panic or an allocation out of proportion.
func FuzzReadGranules(f *testing.F) {
	f.Add(block(MethodNone, 8, make([]byte, 8)), uint8(0), uint32(0))
	f.Add(block(MethodNone, 3, []byte{1, 0xff, 0x01}), uint8(2), uint32(0))
	f.Add([]byte{0x1f, 0, 1, 0, 0x50, 0, 0, 0, 0, 0}, uint8(0), uint32(16))
	f.Add([]byte{0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x08, 0x41, 0, 0, 0, 0, 0, 0, 0, 0, 0}, uint8(1), uint32(8))
	types := []string{"tokenbf_v1(8, 2, 0)", "ngrambf_v1(3, 5, 1, 1)", "bloom_filter", "bloom_filter(0.001)"}
	methods := []byte{MethodNone, MethodLZ4, MethodZSTD}
	f.Fuzz(func(t *testing.T, data []byte, which uint8, usize uint32) {
		ix, _ := ParseIndex(types[int(which)%len(types)])
		in := data
		if usize != 0 {
			// data as the payload of a block with a valid checksum, so
			// the decompressors and the granule parser see it.
			in = block(methods[int(which/4)%len(methods)], usize, data)
		}
		gs, err := ix.ReadGranules(bytes.NewReader(in), 1+int(which)/64)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error not wrapping ErrCorrupt: %v", err)
			}
			return
		}
		for _, g := range gs {
			b, err := g.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			back, err := ix.ParseGranules(b, g.Columns())
			if err != nil || len(back) != 1 {
				t.Fatalf("a granule read does not read back: %v", err)
			}
			g.MayContainString(0, data)
			g.MayContainUint64(0, 1)
		}
	})
}
