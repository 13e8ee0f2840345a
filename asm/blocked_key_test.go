package asm

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/cpulevel"
)

// probeOver returns a probe over a copy of words.
func probeOver(words []uint64, k uint32, seed uint64) BlockedProbe {
	w := slices.Clone(words)
	return NewBlockedProbe(w, uint64(len(w)/8), k, seed)
}

// compareKey checks the single-key kernels at the current level on one
// filter and key against their Generic twins (answers, and the words
// after a write) and the twins against the hash-level probe.
func compareKey(t testing.TB, words []uint64, k uint32, seed uint64, key []byte) {
	t.Helper()
	base := probeOver(words, k, seed)
	h := base.Hash(key)
	want := BlockedTestHash(base.Words, h, k)
	if got := blockedTestKeyGeneric(probeAddr(&base), key); got != want {
		t.Fatalf("k=%d key=%x: blockedTestKeyGeneric = %v, BlockedTestHash %v", k, key, got, want)
	}
	if got := BlockedTestKey(&base, key); got != want {
		t.Fatalf("%s: lines=%d k=%d key=%x: BlockedTestKey = %v, generic %v", Kernel(), base.Lines, k, key, got, want)
	}
	added := slices.Clone(base.Words)
	BlockedAddHash(added, h, k)
	a := probeOver(words, k, seed)
	BlockedAddKey(&a, key)
	b := probeOver(words, k, seed)
	present := BlockedTestAndAddKey(&b, key)
	if !slices.Equal(a.Words, added) || !slices.Equal(b.Words, added) || present != want {
		t.Fatalf("%s: lines=%d k=%d key=%x: BlockedAddKey / BlockedTestAndAddKey (= %v, want %v) set other bits than BlockedAddHash",
			Kernel(), base.Lines, k, key, present, want)
	}
	if len(key) != 8 {
		return
	}
	u := binary.LittleEndian.Uint64(key)
	if got := BlockedTestUint64(&base, u); got != want {
		t.Fatalf("%s: k=%d key=%#x: BlockedTestUint64 = %v, want %v", Kernel(), k, u, got, want)
	}
	c := probeOver(words, k, seed)
	BlockedAddUint64(&c, u)
	d := probeOver(words, k, seed)
	present = BlockedTestAndAddUint64(&d, u)
	if !slices.Equal(c.Words, added) || !slices.Equal(d.Words, added) || present != want {
		t.Fatalf("%s: k=%d key=%#x: BlockedAddUint64 / BlockedTestAndAddUint64 (= %v) set other bits than BlockedAddHash", Kernel(), k, u, present)
	}
}

var keyLengths = []int{0, 1, 7, 8, 8, 8, 9, 16, 33}

func TestBlockedKeyKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	forEachLevel(t, func(t *testing.T) {
		for _, lines := range []int{1, 3, 64, 1000} {
			for _, k := range []uint32{1, 2, 5, 6, 7, 8, 9, 16} {
				for _, fill := range []int{0, 5, 7, 8} {
					words := randomFilter(r, lines, fill)
					seed := r.Uint64()
					for range 40 {
						key := make([]byte, keyLengths[r.IntN(len(keyLengths))])
						for i := range key {
							key[i] = byte(r.Uint32())
						}
						compareKey(t, words, k, seed, key)
					}
				}
			}
		}
	})
}

// A probe without lines holds no key and refuses a write with the zero
// blocked.Filter's message, on every level and key form.
func TestBlockedKeyNoLines(t *testing.T) {
	forEachLevel(t, func(t *testing.T) {
		var p BlockedProbe
		if BlockedTestKey(&p, []byte("12345678")) || BlockedTestUint64(&p, 1) || BlockedTestKey(&p, nil) {
			t.Fatal("a probe without lines holds a key")
		}
		for _, write := range []func(){
			func() { BlockedAddKey(&p, []byte("12345678")) },
			func() { BlockedAddUint64(&p, 1) },
			func() { BlockedTestAndAddKey(&p, []byte("x")) },
			func() { BlockedTestAndAddUint64(&p, 1) },
		} {
			func() {
				defer func() {
					if msg, _ := recover().(string); !strings.Contains(msg, "blocked.New") {
						t.Fatalf("write to a probe without lines: panic %q, want the zero Filter's message", msg)
					}
				}()
				write()
			}()
		}
	})
}

func FuzzBlockedKey(f *testing.F) {
	f.Add(uint8(6), uint16(3), uint8(6), uint64(1), []byte("01234567"))
	f.Add(uint8(9), uint16(1), uint8(8), uint64(0), []byte("x"))
	f.Fuzz(func(t *testing.T, k8 uint8, lines uint16, fill uint8, seed uint64, key []byte) {
		k := uint32(k8)%engine.MaxK + 1
		words := randomFilter(rand.New(rand.NewPCG(uint64(lines), uint64(fill))), int(lines%300)+1, int(fill%9))
		for _, l := range cpulevel.Available() {
			restore, err := cpulevel.Use(l)
			if err != nil {
				t.Fatal(err)
			}
			compareKey(t, words, k, seed, key)
			restore()
		}
	})
}
