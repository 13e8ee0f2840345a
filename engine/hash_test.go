package engine

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/filterengine/filterengine/internal/hashing"

	"github.com/zeebo/xxh3"
)

func TestHashUint64MatchesXXH3(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	keys := []uint64{0, 1, math.MaxUint64, 1 << 32, 0xdeadbeef}
	for range 10000 {
		keys = append(keys, rng.Uint64())
	}
	seeds := []uint64{0, 1, 42, math.MaxUint64, 0x0123456789abcdef}
	for _, k := range keys {
		b := binary.LittleEndian.AppendUint64(nil, k)
		if got, want := HashUint64(k), xxh3.Hash(b); got != want {
			t.Fatalf("HashUint64(%#x) = %#x, xxh3 of its bytes %#x", k, got, want)
		}
		if Hash(b) != xxh3.Hash(b) {
			t.Fatal("Hash is not XXH3-64")
		}
		for _, s := range seeds {
			if got, want := HashUint64Seed(k, s), xxh3.HashSeed(b, s); got != want {
				t.Fatalf("HashUint64Seed(%#x, %#x) = %#x, xxh3 %#x", k, s, got, want)
			}
			if HashSeed(b, s) != xxh3.HashSeed(b, s) {
				t.Fatal("HashSeed is not seeded XXH3-64")
			}
		}
	}
}

// TestHashStringMatchesBytes checks that the string forms hash exactly the
// bytes, and without allocating, at every length XXH3 treats differently
// (0..16, 17..128, 129..240, longer, and past a 1024-byte stripe block).
func TestHashStringMatchesBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	buf := make([]byte, 4096)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	for _, n := range []int{0, 1, 3, 4, 8, 9, 16, 17, 32, 33, 128, 129, 240, 241, 1024, 1025, 4096} {
		s := string(buf[:n])
		for _, seed := range []uint64{0, 1, 0x0123456789abcdef} {
			if got, want := HashStringSeed(s, seed), HashSeed(buf[:n], seed); got != want {
				t.Fatalf("HashStringSeed of %d bytes, seed %#x = %#x, want %#x", n, seed, got, want)
			}
		}
		if HashString(s) != Hash(buf[:n]) {
			t.Fatalf("HashString of %d bytes differs from Hash", n)
		}
		if a := testing.AllocsPerRun(10, func() { _ = HashStringSeed(s, 7) }); a != 0 {
			t.Fatalf("HashStringSeed of %d bytes allocates %v times", n, a)
		}
	}
}

// HashSeed's and HashKeyed's inline 8-byte paths and the general path all
// give XXH3-64,
// for every length around 8 and several seeds.
func TestHashSeedEveryLength(t *testing.T) {
	buf := make([]byte, 40)
	for i := range buf {
		buf[i] = byte(i*131 + 7)
	}
	for _, seed := range []uint64{0, 1, 0x5eed, ^uint64(0)} {
		for n := range len(buf) {
			if got, want := HashSeed(buf[:n], seed), xxh3.HashSeed(buf[:n], seed); got != want {
				t.Fatalf("HashSeed(%d bytes, %#x) = %#x, XXH3 %#x", n, seed, got, want)
			}
			if got, want := hashing.HashKeyed(buf[:n], seed, hashing.Uint64Key(seed)), xxh3.HashSeed(buf[:n], seed); got != want {
				t.Fatalf("HashKeyed(%d bytes, %#x) = %#x, XXH3 %#x", n, seed, got, want)
			}
			if seed == 0 && Hash(buf[:n]) != xxh3.Hash(buf[:n]) {
				t.Fatalf("Hash(%d bytes) is not XXH3-64", n)
			}
		}
	}
}
