package leveldb

import (
	"math/rand/v2"
	"testing"
)

// hashSpec is the hash as LevelDB's util/hash.cc spells it, a byte
// at a time; signed picks RocksDB's sign-extended tail.
func hashSpec(b []byte, signed bool) uint32 {
	h := uint32(hashSeed) ^ uint32(len(b))*hashMul
	for ; len(b) >= 4; b = b[4:] {
		h += uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
		h *= hashMul
		h ^= h >> 16
	}
	tail := func(i int) uint32 {
		if signed {
			return uint32(int8(b[i]))
		}
		return uint32(b[i])
	}
	switch len(b) {
	case 3:
		h += tail(2) << 16
		fallthrough
	case 2:
		h += tail(1) << 8
		fallthrough
	case 1:
		h += tail(0)
		h *= hashMul
		h ^= h >> 24
	}
	return h
}

func TestHashVectors(t *testing.T) {
	// LevelDB's util/hash_test.cc (SignedUnsignedIssue), seed 0xbc9f1d34.
	for _, c := range []struct {
		key  []byte
		want uint32
	}{
		{nil, 0xbc9f1d34},
		{[]byte{0x62}, 0xef1345c4},
		{[]byte{0xc3, 0x97}, 0x5b663814},
		{[]byte{0xe2, 0x99, 0xa5}, 0x323c078f},
		{[]byte{0xe1, 0x80, 0xb9, 0x32}, 0xed21633a},
	} {
		if got := Hash(c.key); got != c.want {
			t.Errorf("Hash(%x) = %#x, want %#x", c.key, got, c.want)
		}
	}
}

func TestHashesMatchSpec(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 1))
	buf := make([]byte, 80)
	for n := 0; n <= len(buf); n++ {
		for range 200 {
			for i := range buf[:n] {
				buf[i] = byte(rng.Uint32())
			}
			key := buf[:n]
			if got, want := Hash(key), hashSpec(key, false); got != want {
				t.Fatalf("Hash(%x) = %#x, spec %#x", key, got, want)
			}
			if got, want := RocksDBHash(key), hashSpec(key, true); got != want {
				t.Fatalf("RocksDBHash(%x) = %#x, spec %#x", key, got, want)
			}
		}
	}
	// The two differ exactly when a tail byte has its top bit set.
	if Hash([]byte{0x80}) == RocksDBHash([]byte{0x80}) {
		t.Error("a tail byte 0x80 must hash differently")
	}
	if Hash([]byte{1, 2, 3, 0x80}) != RocksDBHash([]byte{1, 2, 3, 0x80}) {
		t.Error("whole words must hash the same")
	}
}

func FuzzHash(f *testing.F) {
	f.Add([]byte("hello"))
	f.Add([]byte{0xff, 0x80, 0x7f})
	f.Fuzz(func(t *testing.T, key []byte) {
		if Hash(key) != hashSpec(key, false) || RocksDBHash(key) != hashSpec(key, true) {
			t.Fatalf("hash of %x differs from the specification", key)
		}
	})
}

func TestFastMod(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 2))
	ds := []uint32{1, 2, 3, 7, 8, 64, 511, 512, 1000, 1 << 31, 1<<31 + 1, 1<<32 - 8, 1<<32 - 1}
	for range 2000 {
		ds = append(ds, rng.Uint32()|1, rng.Uint32()>>rng.IntN(32)|1)
	}
	as := []uint32{0, 1, 2, 1<<31 - 1, 1 << 31, 1<<32 - 2, 1<<32 - 1}
	for _, d := range ds {
		m := divMagic(d)
		for _, a := range as {
			if got := fastMod(a, m, d); got != a%d {
				t.Fatalf("fastMod(%d, %d) = %d, want %d", a, d, got, a%d)
			}
		}
		for range 500 {
			a := rng.Uint32()
			if got := fastMod(a, m, d); got != a%d {
				t.Fatalf("fastMod(%d, %d) = %d, want %d", a, d, got, a%d)
			}
		}
	}
}

func FuzzFastMod(f *testing.F) {
	f.Add(uint32(12345), uint32(8000))
	f.Fuzz(func(t *testing.T, a, d uint32) {
		if d == 0 {
			return
		}
		if got := fastMod(a, divMagic(d), d); got != a%d {
			t.Fatalf("fastMod(%d, %d) = %d, want %d", a, d, got, a%d)
		}
	})
}

func TestProbes(t *testing.T) {
	for _, c := range [][2]int{{0, 1}, {1, 1}, {10, 6}, {16, 11}, {44, 30}, {100, 30}} {
		if got := Probes(c[0]); got != c[1] {
			t.Errorf("Probes(%d) = %d, want %d", c[0], got, c[1])
		}
	}
}
