package asm

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/cpulevel"
)

var blockedSizes = []int{0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000}

var blockedKs = []uint32{1, 2, 5, 7, 8, 9, 10, 15, 16, 17, 24, 63, 64}

// randomFilter returns lines*8 words with each bit set with chance about
// fill/8 (fill in 0..8).
func randomFilter(r *rand.Rand, lines, fill int) []uint64 {
	words := make([]uint64, lines*8)
	for i := range words {
		w := ^uint64(0)
		for range 8 - fill {
			w &= r.Uint64()
		}
		if fill == 0 {
			w = 0
		}
		words[i] = w
	}
	return words
}

// compareBlocked checks the current level against the generic twins on
// one filter and batch: test answers, hit count, and the words after add.
func compareBlocked(t testing.TB, words []uint64, k uint32, hs []uint64) {
	t.Helper()
	want := make([]bool, len(hs)+1)
	got := make([]bool, len(hs)+1)
	wantHits := blockedTestHashesGeneric(words, k, hs, want[:len(hs)])
	if hits := BlockedTestHashes(words, k, hs, got); hits != wantHits || !slices.Equal(got, want) {
		t.Fatalf("%s: BlockedTestHashes(lines=%d, k=%d, n=%d) = %d hits, generic %d (answers equal: %v)",
			Kernel(), len(words)/8, k, len(hs), hits, wantHits, slices.Equal(got, want))
	}
	wantWords := slices.Clone(words)
	blockedAddHashesGeneric(wantWords, k, hs)
	gotWords := slices.Clone(words)
	BlockedAddHashes(gotWords, k, hs)
	if !slices.Equal(gotWords, wantWords) {
		t.Fatalf("%s: BlockedAddHashes(lines=%d, k=%d, n=%d) set other bits than the generic twin", Kernel(), len(words)/8, k, len(hs))
	}
}

func TestBlockedKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	forEachGroupForm(t, func(t *testing.T) {
		for _, lines := range []int{1, 3, 64, 1 << 15} { // the last is above the prefetch size
			for _, k := range blockedKs {
				for _, fill := range []int{0, 5, 7, 8} {
					words := randomFilter(r, lines, fill)
					for _, n := range blockedSizes {
						hs := make([]uint64, n)
						for i := range hs {
							hs[i] = r.Uint64()
						}
						eachFarHint(words, func() { compareBlocked(t, words, k, hs) })
					}
				}
			}
		}
	})
}

func TestBlockedAllocs(t *testing.T) {
	forEachLevel(t, func(t *testing.T) {
		words := make([]uint64, 8*100)
		hs, out := make([]uint64, 1000), make([]bool, 1000)
		for name, f := range map[string]func(){
			"TestHashes": func() { BlockedTestHashes(words, 8, hs, out) },
			"AddHashes":  func() { BlockedAddHashes(words, 9, hs) },
		} {
			if a := testing.AllocsPerRun(10, f); a != 0 {
				t.Errorf("%s allocates %v times per call", name, a)
			}
		}
	})
}

func TestBlockedBadArgs(t *testing.T) {
	for _, c := range []struct {
		words int
		k     uint32
	}{{7, 8}, {8, 0}, {8, engine.MaxK + 1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("words=%d k=%d accepted", c.words, c.k)
				}
			}()
			BlockedTestHashes(make([]uint64, c.words), c.k, nil, nil)
		}()
	}
}

// Words without a line (a zero blocked.Filter) answer false to every
// test and panic on every write with the zero Filter's message.
func TestBlockedNoLines(t *testing.T) {
	out := []bool{true, true}
	if BlockedTestHash(nil, 1, 8) || BlockedTestHashes(nil, 8, []uint64{1, 2}, out) != 0 || out[0] || out[1] {
		t.Fatal("words without a line answer present")
	}
	for name, write := range map[string]func(){
		"AddHash":        func() { BlockedAddHash(nil, 1, 8) },
		"TestAndAddHash": func() { BlockedTestAndAddHash(nil, 1, 8) },
		"AddHashes":      func() { BlockedAddHashes(nil, 8, []uint64{1}) },
	} {
		func() {
			defer func() {
				if r := recover(); r != blockedZero {
					t.Errorf("%s without a line panicked with %v, want %q", name, r, blockedZero)
				}
			}()
			write()
		}()
	}
}

// fuzzEachLevel reads data as little-endian hashes and runs compare on
// them at every kernel level, the level restored after each.
func fuzzEachLevel(t *testing.T, data []byte, compare func(hs []uint64)) {
	hs := make([]uint64, len(data)/8)
	for i := range hs {
		hs[i] = binary.LittleEndian.Uint64(data[8*i:])
	}
	for _, l := range cpulevel.Available() {
		restore, err := cpulevel.Use(l)
		if err != nil {
			t.Fatal(err)
		}
		func() {
			defer restore()
			for _, vbmi := range groupForms() {
				withVBMI(vbmi, func() { compare(hs) })
			}
		}()
	}
}

func FuzzBlockedKernels(f *testing.F) {
	f.Add(uint8(8), uint16(3), uint8(6), []byte("0123456789abcdef01234567"))
	f.Add(uint8(10), uint16(1), uint8(0), []byte{})
	f.Fuzz(func(t *testing.T, k uint8, lines uint16, fill uint8, data []byte) {
		kk := uint32(k)%engine.MaxK + 1
		words := randomFilter(rand.New(rand.NewPCG(uint64(lines), uint64(fill))), int(lines%300)+1, int(fill%9))
		fuzzEachLevel(t, data, func(hs []uint64) {
			compareBlocked(t, words, kk, hs)
			// The same values as 8-byte keys, through the grouped forms.
			checkGroups(t, words, kk, uint64(lines)*uint64(fill), hs, "fuzz")
		})
	})
}

// benchKernel times a batch test kernel, a sub-benchmark per filter size
// in bytes and kernel level (with grouped, per form of the blocked
// grouped kernels: avx512vbmi beside avx512): each call tests the next
// batch of 1024 from 2^20 random hashes, so the keys stream as a
// service's would and a filter larger than the caches misses them.
// build makes the filter of a size from r and returns the call to time.
func benchKernel(b *testing.B, sizes []int, grouped bool, build func(r *rand.Rand, bytes int) func(hs []uint64, out []bool) int) {
	const batch, pool = 1024, 1 << 20
	r := rand.New(rand.NewPCG(1, 1))
	hs := make([]uint64, pool)
	for i := range hs {
		hs[i] = r.Uint64()
	}
	out := make([]bool, batch)
	for _, size := range sizes {
		probe := build(r, size)
		for _, l := range cpulevel.Available() {
			forms := []bool{blockedVBMI}
			if grouped {
				forms = groupFormsAt(l)
			}
			for _, vbmi := range forms {
				name := l.String()
				if len(forms) > 1 && vbmi {
					name += "vbmi"
				}
				b.Run(fmt.Sprintf("bytes=%d/kernel=%s", size, name), func(b *testing.B) {
					restore, _ := cpulevel.Use(l)
					defer restore()
					withVBMI(vbmi, func() {
						next := 0
						for b.Loop() {
							probe(hs[next:next+batch], out)
							next = (next + batch) % pool
						}
					})
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/key")
				})
			}
		}
	}
}

func BenchmarkBlockedTestHashes(b *testing.B) {
	benchKernel(b, []int{64 << 12, 64 << 20}, true, func(r *rand.Rand, bytes int) func([]uint64, []bool) int {
		words := randomFilter(r, bytes/64, 6)
		return func(hs []uint64, out []bool) int { return BlockedTestHashes(words, 8, hs, out) }
	})
}

// The Ahead forms answer for the first keys only, whatever follows them
// (the next chunk's hashes, prefetched): on a filter above the prefetch
// size, every count of keys and of hashes past them, the past ones never
// tested or set.
func TestBlockedKernelsAhead(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	forEachGroupForm(t, func(t *testing.T) {
		const lines = 1 << 15
		for _, k := range []uint32{6, 8, 9} {
			words := randomFilter(r, lines, 5)
			for _, n := range blockedSizes {
				for _, extra := range []int{0, 1, BlockedAhead - 1, BlockedAhead, BlockedAhead + 3} {
					hs := make([]uint64, n+extra)
					for i := range hs {
						hs[i] = r.Uint64()
					}
					want := make([]bool, n)
					wantHits := blockedTestHashesGeneric(words, k, hs[:n], want)
					wantWords := slices.Clone(words)
					blockedAddHashesGeneric(wantWords, k, hs[:n])
					eachFarHint(words, func() {
						got := make([]bool, n)
						if hits := BlockedTestHashesAhead(words, k, hs, got); hits != wantHits || !slices.Equal(got, want) {
							t.Fatalf("%s: BlockedTestHashesAhead(k=%d, n=%d, extra=%d, far L1 %v) = %d hits, generic %d", Kernel(), k, n, extra, blockedFarL1, hits, wantHits)
						}
						gotWords := slices.Clone(words)
						BlockedAddHashesAhead(gotWords, k, hs, n)
						if !slices.Equal(gotWords, wantWords) {
							t.Fatalf("%s: BlockedAddHashesAhead(k=%d, n=%d, extra=%d, far L1 %v) set other bits than the generic twin", Kernel(), k, n, extra, blockedFarL1)
						}
					})
				}
			}
		}
	})
}
