package conformance

import (
	"encoding/binary"
	"math/rand/v2"

	"github.com/filterengine/filterengine/engine"
)

// keySet is a set of distinct keys in every form a filter takes: bytes,
// string, hash under the filter's seed and, for integer keys, the uint64
// whose 8 little-endian bytes are the byte form.
type keySet struct {
	b    [][]byte
	s    []string
	h    []uint64
	u    []uint64 // integer keys only
	isU  bool
	hash func([]byte) uint64 // the filter's hash of a key
}

// le8 returns the 8 little-endian bytes of k.
func le8(k uint64) []byte { return binary.LittleEndian.AppendUint64(nil, k) }

// byteKeys returns n distinct byte keys, lengths cycling through 0..40
// (so every hash path of every length runs), none of them in avoid.
func byteKeys(rng *rand.Rand, n int, hash func([]byte) uint64, avoid map[string]bool) keySet {
	ks := keySet{hash: hash}
	for i := 0; len(ks.b) < n; i++ {
		b := make([]byte, i%41)
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		if avoid[string(b)] {
			continue
		}
		avoid[string(b)] = true
		ks.add(b)
	}
	return ks
}

// uintKeys returns n distinct random integer keys, none of them in avoid.
func uintKeys(rng *rand.Rand, n int, hash func([]byte) uint64, avoid map[string]bool) keySet {
	ks := keySet{hash: hash, isU: true}
	for len(ks.b) < n {
		u := rng.Uint64()
		b := le8(u)
		if avoid[string(b)] {
			continue
		}
		avoid[string(b)] = true
		ks.add(b)
		ks.u = append(ks.u, u)
	}
	return ks
}

func (ks *keySet) add(b []byte) {
	ks.b = append(ks.b, b)
	ks.s = append(ks.s, string(b))
	ks.h = append(ks.h, ks.hash(b))
}

// len returns the number of keys.
func (ks keySet) len() int { return len(ks.b) }

// slice returns keys [i, j).
func (ks keySet) slice(i, j int) keySet {
	c := keySet{b: ks.b[i:j:j], s: ks.s[i:j:j], h: ks.h[i:j:j], isU: ks.isU, hash: ks.hash}
	if ks.isU {
		c.u = ks.u[i:j:j]
	}
	return c
}

// cut splits ks into parts near-equal consecutive sets.
func (ks keySet) cut(parts int) []keySet {
	out := make([]keySet, parts)
	for i := range parts {
		out[i] = ks.slice(i*ks.len()/parts, (i+1)*ks.len()/parts)
	}
	return out
}

// keyGen hands out keys that are distinct from every key it handed out
// before, so "absent" keys are never equal to added ones.
type keyGen struct {
	rng   *rand.Rand
	hash  func([]byte) uint64
	taken map[string]bool
}

// keys returns a generator of keys hashed as a filter built with extra
// hashes them (Family.Hash with the seed); stream picks the keys.
func (s *suite[T]) keys(stream uint64, extra ...engine.Option) *keyGen {
	seed := s.seed(extra...)
	hash := func(b []byte) uint64 { return engine.HashSeed(b, seed) }
	if s.fam.Hash != nil {
		hash = func(b []byte) uint64 { return s.fam.Hash(b, seed) }
	}
	return &keyGen{rng: rand.New(rand.NewPCG(0x636f6e666f726d, stream)), hash: hash, taken: map[string]bool{}}
}

func (g *keyGen) bytes(n int) keySet { return byteKeys(g.rng, n, g.hash, g.taken) }
func (g *keyGen) uints(n int) keySet { return uintKeys(g.rng, n, g.hash, g.taken) }

// mixed returns n byte keys and n integer keys.
func (g *keyGen) mixed(n int) (keySet, keySet) { return g.bytes(n), g.uints(n) }
