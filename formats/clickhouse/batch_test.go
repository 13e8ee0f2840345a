package clickhouse

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-faster/city"
)

// The division-free remainder against %, on the edges where an estimated
// quotient could be off: multiples of d and their neighbours, at both ends
// of the 64-bit range, for every filter size up to 4096 bytes, powers of two
// and their neighbours, and random divisors.
func TestDivisorEdges(t *testing.T) {
	var ds []uint64
	for s := uint64(1); s <= 4096; s++ {
		ds = append(ds, 8*s)
	}
	for b := 1; b < 64; b++ {
		p := uint64(1) << b
		ds = append(ds, p-1, p, p+1)
	}
	r := rand.New(rand.NewPCG(11, 12))
	for range 2000 {
		ds = append(ds, 8*(1+r.Uint64N(MaxFilterBytes)), 1+r.Uint64N(1<<40), r.Uint64()|1)
	}
	ds = append(ds, 1, 2, 3, math.MaxUint64, math.MaxUint64-1, 1<<63+1)
	for _, d := range ds {
		v := newDivisor(d)
		top := math.MaxUint64 / d * d // the largest multiple of d
		for _, base := range []uint64{0, d, 2 * d, top - d, top, d * (1 + r.Uint64N(math.MaxUint64/d))} {
			for _, off := range []uint64{0, 1, 2, d - 2, d - 1, math.MaxUint64, math.MaxUint64 - 1} {
				x := base + off
				if got, want := v.mod(x), x%d; got != want {
					t.Fatalf("%d mod %d = %d, want %d", x, d, got, want)
				}
			}
		}
		for _, x := range []uint64{math.MaxUint64, math.MaxUint64 - 1, 1 << 63, 1<<63 - 1, r.Uint64()} {
			if got, want := v.mod(x), x%d; got != want {
				t.Fatalf("%d mod %d = %d, want %d", x, d, got, want)
			}
		}
	}
}

// cityShort and the arena's inline hash against the generic CityHash64, for
// every length up to 16 at every position of a buffer, both ends included.
func TestCityShortForms(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{8, 9, 15, 16, 17, 40} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		for s := 0; s < n; s++ {
			for e := s + 1; e <= min(n, s+16); e++ {
				if got, want := cityShort(b, s, e), city.CH64(b[s:e]); got != want {
					t.Fatalf("cityShort(%x, %d, %d) = %x, want %x", b, s, e, got, want)
				}
				if got, want := cityIn(b, s, e), city.CH64(b[s:e]); got != want {
					t.Fatalf("cityIn(%x, %d, %d) = %x, want %x", b, s, e, got, want)
				}
			}
		}
	}
}

// tokenBits8 against the byte classification, for every byte in every lane.
func TestTokenBits8(t *testing.T) {
	for c := 0; c < 256; c++ {
		for lane := 0; lane < 8; lane++ {
			w := uint64(c) << (8 * lane)
			want := uint64(0)
			if !isSep[c] {
				want = 1 << lane
			}
			// The other lanes hold a separator (0) and a token byte ('a')
			// in turn, so that a carry between lanes would show.
			for _, fill := range []uint64{0, 'a'} {
				wf, wantf := w, want
				for o := 0; o < 8; o++ {
					if o != lane {
						wf |= fill << (8 * o)
						if fill == 'a' {
							wantf |= 1 << o
						}
					}
				}
				if got := tokenBits8(wf); got != wantf {
					t.Fatalf("tokenBits8(%016x) = %08b, want %08b", wf, got, wantf)
				}
			}
		}
	}
}

// textRows returns rows that exercise the batch tokenizer: every length
// around the 64-byte blocks and the arena, tokens of every length up to past
// 16 bytes, separators of every kind, bytes >= 0x80, a value longer than
// the arena, and one token longer than an arena piece.
func textRows(r *rand.Rand) [][]byte {
	var rows [][]byte
	alpha := []byte("abcXYZ0189\x80\xc3\xa9\xff")
	seps := []byte(" ,.-/\x00\x7f@[`{")
	row := func(n int, tokLen func() int) []byte {
		var b []byte
		for len(b) < n {
			for range tokLen() {
				b = append(b, alpha[r.IntN(len(alpha))])
			}
			for range 1 + r.IntN(3) {
				b = append(b, seps[r.IntN(len(seps))])
			}
		}
		if r.IntN(2) == 0 {
			b = b[:n] // may cut a token or keep separators in front
		}
		return b
	}
	for n := 0; n <= 200; n++ {
		rows = append(rows, row(n, func() int { return 1 + r.IntN(20) }))
	}
	for range 300 {
		rows = append(rows, row(r.IntN(300), func() int { return 1 + r.IntN(10) }))
	}
	rows = append(rows, row(3*arenaBytes+77, func() int { return 1 + r.IntN(30) }))
	rows = append(rows, bytes.Repeat([]byte("a"), 2*arenaBytes+5))
	long := row(arenaBytes, func() int { return 1 + r.IntN(5) })
	long = append(long, bytes.Repeat([]byte("Zz9"), arenaBytes)...)
	rows = append(rows, append(long, " tail"...))
	return rows
}

// The batch build against the reference, value by value and all at once,
// on rows built to hit the tokenizer's edges.
func TestBatchEdges(t *testing.T) {
	rows := textRows(rand.New(rand.NewPCG(15, 16)))
	for _, typ := range []string{"tokenbf_v1(1000, 3, 5)", "tokenbf_v1(1024, 2, 0)", "tokenbf_v1(7, 1, 3)",
		"ngrambf_v1(2, 333, 2, 0)", "ngrambf_v1(4, 512, 3, 1)", "ngrambf_v1(9, 256, 2, 0)", "ngrambf_v1(20, 256, 2, 0)"} {
		ix, _ := ParseIndex(typ)
		if batchOK, singleOK := textBuilds(ix, rows); !batchOK || !singleOK {
			t.Errorf("%s: batch %v, single %v equal to the reference", typ, batchOK, singleOK)
		}
		for i, s := range rows {
			g := ix.NewGranule(1)
			g.AddString(0, s)
			got, _ := g.MarshalBinary()
			if want := refTextGranule(ix, rows[i:i+1]).bytes(); !bytes.Equal(got, want) {
				t.Fatalf("%s: row %d (%q) differs from the reference", typ, i, s)
			}
		}
	}
}

// hashSet against a map: random hashes with repeats, 0, and hashes that
// differ only in their low or their high bits.
func TestHashSet(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	var s hashSet
	want := map[uint64]bool{}
	add := func(h uint64) {
		s.add(h)
		want[h] = true
		if s.len() != len(want) {
			t.Fatalf("after adding %x: len %d, want %d", h, s.len(), len(want))
		}
	}
	for i := range 5000 {
		add(r.Uint64N(3000))
		add(uint64(i) << 40)
		add(r.Uint64())
	}
	add(0)
	s.reserve(100000)
	for i := range 1000 {
		add(uint64(i))
	}
	got := map[uint64]bool{}
	if s.zero {
		got[0] = true
	}
	for _, h := range s.slots {
		if h != 0 {
			if got[h] {
				t.Fatalf("%x held twice", h)
			}
			got[h] = true
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d hashes held, want %d", len(got), len(want))
	}
	for h := range want {
		if !got[h] {
			t.Fatalf("%x missing", h)
		}
	}
}

// FuzzBatchBuild: any values, split from the input at 0xFE bytes, build
// the same filter through the batch adds, the single adds and the
// reference, for each text index type.
func FuzzBatchBuild(f *testing.F) {
	f.Add([]byte("hello, world\xfeGET /a-b?c=1\xfe\xfe"), uint8(0))
	f.Add([]byte("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e text\xfex\xe4\xb8"), uint8(3))
	f.Add(bytes.Repeat([]byte("abcdefghijklmnopq "), 300), uint8(1))
	types := []string{"tokenbf_v1(1000, 3, 5)", "tokenbf_v1(512, 2, 0)", "ngrambf_v1(1, 333, 2, 0)",
		"ngrambf_v1(3, 1024, 3, 9)", "ngrambf_v1(4, 100, 1, 0)", "ngrambf_v1(10, 64, 2, 7)"}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		ix, _ := ParseIndex(types[int(which)%len(types)])
		rows := bytes.Split(data, []byte{0xfe})
		if batchOK, singleOK := textBuilds(ix, rows); !batchOK || !singleOK {
			t.Fatalf("%v: batch %v, single %v equal to the reference", ix, batchOK, singleOK)
		}
	})
}

// What a text batch takes its filter to hold follows the filter: after
// Reset, and in a granule whose columns take rows in turn, every token and
// n-gram sets its bits again.
func TestSeen(t *testing.T) {
	rows, _ := benchRows(2000, 21)
	for _, typ := range []string{"ngrambf_v1(1, 300, 2, 0)", "ngrambf_v1(2, 512, 2, 1)", "ngrambf_v1(3, 1000, 3, 0)",
		"tokenbf_v1(1000, 3, 0)", "tokenbf_v1(512, 2, 7)"} {
		ix, _ := ParseIndex(typ)
		want := refTextGranule(ix, rows).bytes()
		g := ix.NewGranule(2)
		for i := range 3 {
			g.AddStrings(0, rows)
			g.AddStrings(0, rows) // all seen
			for _, r := range rows {
				g.AddString(0, r)
				g.AddString(1, r)
			}
			if g.texts[0].seen == nil {
				t.Fatalf("%s: no seen set after %d rows", typ, 4*len(rows))
			}
			for col := range 2 {
				if got := g.Filter(col).Bytes(); !bytes.Equal(got, want) {
					t.Fatalf("%s: round %d, column %d differs from the reference", typ, i, col)
				}
			}
			g.Filter(0).Reset()
			g.Filter(1).Reset()
		}
		// Values whose n-grams (random printable bytes) or tokens (random
		// words) rarely repeat: the lookups pause, and resume.
		r := rand.New(rand.NewPCG(22, uint64(ix.n)))
		var noise [][]byte
		nrows := 3000
		if ix.kind == TokenBF {
			nrows = 6000 // a token every eight bytes or so
		}
		for range nrows {
			b := make([]byte, 60)
			for i := range b {
				b[i] = byte(0x20 + r.IntN(95))
				if ix.kind == TokenBF {
					b[i] = "abcdefghijklmnopqrstuvwxyz0123456789      "[r.IntN(42)]
				}
			}
			noise = append(noise, b)
		}
		if ix.n == 3 || ix.kind == TokenBF {
			gn := ix.NewGranule(1)
			gn.AddStrings(0, noise)
			if gn.texts[0].pause <= 0 {
				t.Errorf("%s: lookups not paused over random values", typ)
			}
		}
		all := append(append(append([][]byte(nil), noise...), rows...), noise...)
		g.AddStrings(0, all)
		if got, want := g.Filter(0).Bytes(), refTextGranule(ix, all).bytes(); !bytes.Equal(got, want) {
			t.Fatalf("%s: rows after noise differ from the reference", typ)
		}
	}
}

// tokenMasks (the assembly on amd64) against the byte classification, on
// every byte value at every position of a block.
func TestTokenMasks(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	src := make([]byte, 64*64)
	for i := range src {
		src[i] = byte(i*7 + i/256)
	}
	for i := 64 * 40; i < len(src); i++ {
		src[i] = byte(r.Uint32())
	}
	for c := 0; c < 256; c++ {
		src[c] = byte(c) // every byte value in every lane of blocks 0-3
	}
	got := make([]uint64, 64)
	tokenMasks(got, src)
	for i, m := range got {
		for j := range 64 {
			if want := !isSep[src[64*i+j]]; (m>>j&1 == 1) != want {
				t.Fatalf("block %d byte %d (%#x): mask bit %v, want %v", i, j, src[64*i+j], m>>j&1 == 1, want)
			}
		}
	}
}

// textBuilds builds one granule of rows with AddStrings and one with an
// AddString per row, and reports whether each is byte for byte the
// reference's.
func textBuilds(ix *Index, rows [][]byte) (batchOK, singleOK bool) {
	batch, single := ix.NewGranule(1), ix.NewGranule(1)
	batch.AddStrings(0, rows)
	for _, r := range rows {
		single.AddString(0, r)
	}
	want := refTextGranule(ix, rows).bytes()
	b1, _ := batch.MarshalBinary()
	b2, _ := single.MarshalBinary()
	return bytes.Equal(b1, want), bytes.Equal(b2, want)
}
