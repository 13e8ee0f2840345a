package hadoop

import (
	"errors"
	"testing"

	"github.com/filterengine/filterengine/engine"
)

// Published and recorded values that pin both hashes.
func TestHashKnownValues(t *testing.T) {
	four := []byte("Four score and seven years ago")
	for _, c := range []struct {
		name string
		got  int32
		want uint32
	}{
		// Bob Jenkins' lookup3.c driver values for hashlittle.
		{"jenkins initval 0", JenkinsHash(four, 0), 0x17770551},
		{"jenkins initval 1", JenkinsHash(four, 1), 0xcd628161},
		{"jenkins empty", JenkinsHash(nil, 0), 0xdeadbeef},
		// Hadoop's MurmurHash against reference MurmurHash2: a 3-byte
		// tail taken in reverse, a sign-extended 1-byte tail, no tail.
		{"murmur 010203", MurmurHash([]byte{1, 2, 3}, 0), uint32(947344187)},
		{"murmur 80", MurmurHash([]byte{0x80}, 0), uint32(0xffffffff - 39096812 + 1)},
		{"murmur 01 is a fixed point", MurmurHash([]byte{1}, 0), 0},
		{"murmur 0002", MurmurHash([]byte{0, 2}, 0), 0},
		{"murmur 000003", MurmurHash([]byte{0, 0, 3}, 0), 0},
	} {
		if uint32(c.got) != c.want {
			t.Errorf("%s = %#x, want %#x", c.name, uint32(c.got), c.want)
		}
	}
}

// TestGoldenHashes compares the raw hash chains, Hash.hash(bytes) with
// initval -1 and HashFunction's positions for every recorded key and shape.
func TestGoldenHashes(t *testing.T) {
	var g struct {
		Configs []struct {
			VectorSize int      `json:"vectorSize"`
			NbHash     int      `json:"nbHash"`
			HashType   HashType `json:"hashType"`
		} `json:"configs"`
		Keys []struct {
			Key           string  `json:"key"`
			ChainJenkins  []int32 `json:"chain_jenkins"`
			ChainMurmur   []int32 `json:"chain_murmur"`
			SeedM1Jenkins int32   `json:"seedm1_jenkins"`
			SeedM1Murmur  int32   `json:"seedm1_murmur"`
			Positions     [][]int `json:"positions"`
		} `json:"keys"`
	}
	if err := readJSON("hash/hash_positions.json", &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Keys) < 256+14+31 || len(g.Configs) < 9 {
		t.Fatalf("only %d keys and %d configs recorded", len(g.Keys), len(g.Configs))
	}
	compared := 0
	for _, k := range g.Keys {
		key := unhex(t, k.Key)
		for _, h := range []struct {
			ht     HashType
			chain  []int32
			seedM1 int32
		}{{Jenkins, k.ChainJenkins, k.SeedM1Jenkins}, {Murmur, k.ChainMurmur, k.SeedM1Murmur}} {
			if len(h.chain) == 0 {
				t.Fatalf("%s: no %v chain", k.Key, h.ht)
			}
			seed := int32(0)
			for i, want := range h.chain {
				seed = h.ht.hash32(key, seed)
				if seed != want {
					t.Errorf("%s %v chain[%d] = %d, Hadoop %d", k.Key, h.ht, i, seed, want)
				}
				compared++
			}
			if got := h.ht.hash32(key, -1); got != h.seedM1 {
				t.Errorf("%s %v initval -1 = %d, Hadoop %d", k.Key, h.ht, got, h.seedM1)
			}
		}
		if len(k.Positions) != len(g.Configs) {
			t.Fatalf("%s: %d position lists for %d configs", k.Key, len(k.Positions), len(g.Configs))
		}
		for ci, c := range g.Configs {
			got, err := Positions(key, c.VectorSize, c.NbHash, c.HashType)
			if err != nil {
				t.Fatal(err)
			}
			if !equalInts(got, k.Positions[ci]) {
				t.Errorf("%s %+v: positions %v, Hadoop %v", k.Key, c, got, k.Positions[ci])
			}
			compared += len(got)
		}
	}
	t.Logf("%d keys, %d configs: %d hashes and positions compared", len(g.Keys), len(g.Configs), compared)
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestPositionsErrors(t *testing.T) {
	for _, c := range []struct {
		key   []byte
		vs, k int
		h     HashType
	}{
		{nil, 10, 1, Jenkins},
		{[]byte{}, 10, 1, Murmur},
		{[]byte{1}, 0, 1, Jenkins},
		{[]byte{1}, -5, 1, Jenkins},
		{[]byte{1}, over31, 1, Jenkins},
		{[]byte{1}, 10, 0, Jenkins},
		{[]byte{1}, 10, 1, 2},
		{[]byte{1}, 10, 1, -1},
	} {
		if p, err := Positions(c.key, c.vs, c.k, c.h); !errors.Is(err, engine.ErrParam) {
			t.Errorf("Positions(%x, %d, %d, %d) = %v, %v; want ErrParam", c.key, c.vs, c.k, c.h, p, err)
		}
	}
}

// A position is |raw % vectorSize| with a truncating remainder: for a
// negative hash that is not the unsigned value's remainder.
func TestPositionTruncatingRemainder(t *testing.T) {
	for _, c := range []struct {
		raw  int32
		vs   int32
		want int
	}{
		{-7, 5, 2}, {7, 5, 2}, {-2147483648, 1000, 648}, {-2147483648, 2147483647, 1},
		{2147483647, 2147483647, 0}, {-1, 1, 0}, {-1001, 1000, 1},
	} {
		if got := position(c.raw, c.vs); got != c.want {
			t.Errorf("position(%d, %d) = %d, want %d", c.raw, c.vs, got, c.want)
		}
	}
}

// The division-free position equals Math.abs(raw % vectorSize) for the
// extreme hashes and sizes and a spread of others.
func TestFastPosition(t *testing.T) {
	raws := []int32{0, 1, -1, 2, -2, 1<<31 - 1, -1 << 31, -1<<31 + 1, 1 << 30, -(1 << 30)}
	sizes := []int{1, 2, 3, 7, 64, 1000, 1021, 65536, 100003, 1<<31 - 1, 1<<31 - 2, 1 << 30, 1<<30 + 1}
	x := uint32(1)
	for range 600 {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		raws = append(raws, int32(x))
		sizes = append(sizes, int(x>>1)%(1<<31-1)+1, int(x>>20)+1)
	}
	for _, vs := range sizes {
		s, err := newShape(vs, 1, Murmur)
		if err != nil {
			t.Fatal(err)
		}
		for _, raw := range raws {
			if got, want := s.position(raw), position(raw, int32(vs)); got != want {
				t.Fatalf("vectorSize %d, hash %d: position %d, want %d", vs, raw, got, want)
			}
		}
	}
}
