package asm

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/internal/cpulevel"
	"github.com/filterengine/filterengine/internal/hashing"
)

// sbbfWords returns blocks*4 words with each bit set with chance about
// fill/8 (fill in 0..8).
func sbbfWords(r *rand.Rand, blocks, fill int) []uint64 {
	words := make([]uint64, blocks*4)
	for i := range words {
		switch fill {
		case 0:
		case 8:
			words[i] = ^uint64(0)
		default:
			w := ^uint64(0)
			for range 8 - fill {
				w &= r.Uint64()
			}
			words[i] = w
		}
	}
	return words
}

// compareSBBF checks the current level against the Generic twins on one
// filter and batch: answers, hit count, and the words after add.
func compareSBBF(t testing.TB, words []uint64, hs []uint64) {
	t.Helper()
	want := make([]bool, len(hs)+1)
	got := make([]bool, len(hs)+1)
	wantHits := sbbfTestHashesGeneric(words, hs, want[:len(hs)])
	if hits := SBBFTestHashes(words, hs, got); hits != wantHits || !slices.Equal(got, want) {
		t.Fatalf("%s: SBBFTestHashes(blocks=%d, n=%d) = %d hits, generic %d (answers equal: %v)",
			Kernel(), len(words)/4, len(hs), hits, wantHits, slices.Equal(got, want))
	}
	wantWords := slices.Clone(words)
	sbbfAddHashesGeneric(wantWords, hs)
	gotWords := slices.Clone(words)
	SBBFAddHashes(gotWords, hs)
	if !slices.Equal(gotWords, wantWords) {
		t.Fatalf("%s: SBBFAddHashes(blocks=%d, n=%d) set other bits than the generic twin", Kernel(), len(words)/4, len(hs))
	}
}

// The word layout is the Parquet one: 32-bit word i of a block holds bit
// (key*salt[i])>>27, checked here against a direct reading of the spec
// over the little-endian bytes.
func TestSBBFMaskIsSpec(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for range 10000 {
		h := r.Uint64()
		m := sbbfMask(h)
		var b [32]byte
		for j, w := range m {
			binary.LittleEndian.PutUint64(b[8*j:], w)
		}
		for i := range 8 {
			want := uint32(1) << ((uint32(h) * SBBFSalt[i]) >> 27)
			if got := binary.LittleEndian.Uint32(b[4*i:]); got != want {
				t.Fatalf("h=%#x word %d = %#x, want %#x", h, i, got, want)
			}
		}
	}
}

func TestSBBFKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	forEachLevel(t, func(t *testing.T) {
		for _, blocks := range []int{1, 2, 3, 64, 1 << 15} { // the last is above the prefetch size
			for _, fill := range []int{0, 5, 7, 8} {
				words := sbbfWords(r, blocks, fill)
				for _, n := range blockedSizes {
					hs := make([]uint64, n)
					for i := range hs {
						hs[i] = r.Uint64()
					}
					compareSBBF(t, words, hs)
					// Duplicates and keys sharing a block, which the
					// two-key AVX-512 add must both keep.
					for i := 1; i < len(hs); i += 2 {
						hs[i] = hs[i-1] ^ uint64(i)
					}
					compareSBBF(t, words, hs)
				}
			}
		}
	})
}

func checkXXH64s(t testing.TB, ks []uint64) {
	t.Helper()
	got := make([]uint64, len(ks)+1)
	const sentinel = 0xdeadbeefcafef00d
	got[len(ks)] = sentinel
	XXH64Uint64s(got, ks)
	var b [8]byte
	for i, k := range ks {
		binary.LittleEndian.PutUint64(b[:], k)
		if want := hashing.XXH64(b[:], 0); got[i] != want {
			t.Fatalf("%s: XXH64Uint64s(n=%d)[%d] key %#x = %#x, want %#x", Kernel(), len(ks), i, k, got[i], want)
		}
	}
	if got[len(ks)] != sentinel {
		t.Fatalf("%s: XXH64Uint64s wrote past len(ks)=%d", Kernel(), len(ks))
	}
}

func TestXXH64Uint64s(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 3))
	forEachLevel(t, func(t *testing.T) {
		for _, n := range hashSizes {
			ks := make([]uint64, n)
			for i := range ks {
				ks[i] = r.Uint64()
			}
			checkXXH64s(t, ks)
		}
		checkXXH64s(t, []uint64{0, 1, ^uint64(0), 1 << 63, 1 << 32, 0xffffffff, 8, 35})
	})
}

func TestSBBFAllocs(t *testing.T) {
	forEachLevel(t, func(t *testing.T) {
		words := make([]uint64, 4*100)
		hs, out := make([]uint64, 1000), make([]bool, 1000)
		for name, f := range map[string]func(){
			"TestHashes":   func() { SBBFTestHashes(words, hs, out) },
			"AddHashes":    func() { SBBFAddHashes(words, hs) },
			"XXH64Uint64s": func() { XXH64Uint64s(out64, hs) },
		} {
			if a := testing.AllocsPerRun(10, f); a != 0 {
				t.Errorf("%s allocates %v times per call", name, a)
			}
		}
	})
}

var out64 = make([]uint64, 1000)

func TestSBBFBadArgs(t *testing.T) {
	for _, n := range []int{0, 3, 5} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%d words accepted", n)
				}
			}()
			SBBFTestHashes(make([]uint64, n), nil, nil)
		}()
	}
}

func FuzzSBBFKernels(f *testing.F) {
	f.Add(uint16(3), uint8(6), []byte("0123456789abcdef01234567"))
	f.Add(uint16(1), uint8(0), []byte{})
	f.Fuzz(func(t *testing.T, blocks uint16, fill uint8, data []byte) {
		words := sbbfWords(rand.New(rand.NewPCG(uint64(blocks), uint64(fill))), int(blocks%600)+1, int(fill%9))
		fuzzEachLevel(t, data, func(hs []uint64) {
			compareSBBF(t, words, hs)
			checkXXH64s(t, hs)
		})
	})
}

func BenchmarkSBBFTestHashes(b *testing.B) {
	benchKernel(b, []int{32 << 10, 32 << 16}, false, func(r *rand.Rand, bytes int) func([]uint64, []bool) int {
		words := sbbfWords(r, bytes/32, 5)
		return func(hs []uint64, out []bool) int { return SBBFTestHashes(words, hs, out) }
	})
}

func BenchmarkXXH64Uint64s(b *testing.B) {
	const batch = 1024
	ks, dst := make([]uint64, batch), make([]uint64, batch)
	for i := range ks {
		ks[i] = uint64(i) * 0x9e3779b97f4a7c15
	}
	for _, l := range cpulevel.Available() {
		b.Run(fmt.Sprintf("kernel=%v", l), func(b *testing.B) {
			restore, _ := cpulevel.Use(l)
			defer restore()
			for b.Loop() {
				XXH64Uint64s(dst, ks)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/key")
		})
	}
}

func TestSBBFSaltConstants(t *testing.T) {
	got := [8]uint32{sbbfSalt0, sbbfSalt1, sbbfSalt2, sbbfSalt3, sbbfSalt4, sbbfSalt5, sbbfSalt6, sbbfSalt7}
	if got != SBBFSalt {
		t.Fatalf("constant salts %x differ from SBBFSalt %x", got, SBBFSalt)
	}
}

// The scalar forms agree with sbbfMask, the spec's reading.
func TestSBBFScalarIsMask(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for range 1000 {
		words := sbbfWords(r, 1+r.IntN(50), r.IntN(9))
		h := r.Uint64()
		b := sbbfBlock(h, uint64(len(words))/4) * 4
		m := sbbfMask(h)
		want := true
		for j := range m {
			want = want && m[j]&^words[b+uint64(j)] == 0
		}
		if SBBFTestHash(words, h) != want {
			t.Fatalf("SBBFTestHash(%#x) != mask test", h)
		}
		SBBFAddHash(words, h)
		for j := range m {
			if m[j]&^words[b+uint64(j)] != 0 {
				t.Fatalf("SBBFAddHash(%#x) did not set its mask", h)
			}
		}
	}
	if SBBFTestHash(nil, 5) {
		t.Error("no blocks answers true")
	}
}
