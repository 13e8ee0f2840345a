package asm

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/cpulevel"
)

// hashSizes surround every vector width and unroll factor.
var hashSizes = []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 1000}

func checkHashes(t testing.TB, ks []uint64, seed uint64) {
	t.Helper()
	got := make([]uint64, len(ks)+1)
	const sentinel = 0xdeadbeefcafef00d
	got[len(ks)] = sentinel
	HashUint64s(got, ks, seed)
	for i, k := range ks {
		if want := engine.HashUint64Seed(k, seed); got[i] != want {
			t.Fatalf("%s: HashUint64s(n=%d, seed=%#x)[%d] key %#x = %#x, want %#x", Kernel(), len(ks), seed, i, k, got[i], want)
		}
	}
	if got[len(ks)] != sentinel {
		t.Fatalf("%s: HashUint64s wrote past len(ks)=%d", Kernel(), len(ks))
	}
}

func TestHashUint64s(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	forEachLevel(t, func(t *testing.T) {
		for _, n := range hashSizes {
			for _, seed := range []uint64{0, 1, 0x0123456789abcdef, ^uint64(0)} {
				ks := make([]uint64, n)
				for i := range ks {
					ks[i] = r.Uint64()
				}
				checkHashes(t, ks, seed)
			}
		}
		checkHashes(t, []uint64{0, 1, ^uint64(0), 1 << 63, 1 << 32, 0xffffffff, 8, 35}, 0)
	})
}

// The scalar specification itself must be XXH3 of the key's bytes.
func TestHashUint64sMatchesBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	forEachLevel(t, func(t *testing.T) {
		ks := make([]uint64, 257)
		for i := range ks {
			ks[i] = r.Uint64()
		}
		for _, seed := range []uint64{0, 7} {
			dst := make([]uint64, len(ks))
			HashUint64s(dst, ks, seed)
			var b [8]byte
			for i, k := range ks {
				binary.LittleEndian.PutUint64(b[:], k)
				if want := engine.HashSeed(b[:], seed); dst[i] != want {
					t.Fatalf("key %#x seed %d: %#x, XXH3 of its bytes %#x", k, seed, dst[i], want)
				}
			}
		}
	})
}

func TestHashUint64sShortDst(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("HashUint64s accepted dst shorter than keys")
		}
	}()
	HashUint64s(make([]uint64, 3), make([]uint64, 4), 0)
}

func TestHashUint64sAllocs(t *testing.T) {
	forEachLevel(t, func(t *testing.T) {
		ks, dst := make([]uint64, 1000), make([]uint64, 1000)
		if a := testing.AllocsPerRun(20, func() { HashUint64s(dst, ks, 5) }); a != 0 {
			t.Errorf("HashUint64s allocates %v times per call", a)
		}
	})
}

func FuzzHashUint64s(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, uint64(0))
	f.Add(make([]byte, 8*17), uint64(99))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		ks := make([]uint64, len(data)/8)
		for i := range ks {
			ks[i] = binary.LittleEndian.Uint64(data[8*i:])
		}
		for _, l := range cpulevel.Available() {
			restore, err := cpulevel.Use(l)
			if err != nil {
				t.Fatal(err)
			}
			checkHashes(t, ks, seed)
			restore()
		}
	})
}

func BenchmarkHashUint64s(b *testing.B) {
	const batch = 1024
	ks, dst := make([]uint64, batch), make([]uint64, batch)
	for i := range ks {
		ks[i] = uint64(i) * 0x9e3779b97f4a7c15
	}
	for _, l := range cpulevel.Available() {
		b.Run(fmt.Sprintf("kernel=%v", l), func(b *testing.B) {
			restore, err := cpulevel.Use(l)
			if err != nil {
				b.Fatal(err)
			}
			defer restore()
			for b.Loop() {
				HashUint64s(dst, ks, 0)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/key")
		})
	}
}
