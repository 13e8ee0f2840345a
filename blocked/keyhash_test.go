package blocked

import (
	"encoding/binary"
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/kerneltest"

	"github.com/filterengine/filterengine/engine"
)

// The byte-key methods hash an 8-byte key in asm's single-key kernel; every length,
// 8 among them, must set and test exactly what the Hash forms do with
// engine.HashSeed, for any seed, and survive a round trip.
func TestByteKeysHashAsHashSeed(t *testing.T) {
	for _, seed := range []uint64{0, 42, 0x0123456789abcdef, ^uint64(0)} {
		byKey, _ := NewMK(64*512, 6, engine.WithSeed(seed))
		byHash, _ := NewMK(64*512, 6, engine.WithSeed(seed))
		byTAA, _ := NewMK(64*512, 6, engine.WithSeed(seed))
		var keys [][]byte
		for i := range uint64(3000) {
			key := binary.LittleEndian.AppendUint64(nil, i*0x9e3779b97f4a7c15)
			key = binary.LittleEndian.AppendUint64(key, i)
			keys = append(keys, key[:int(i%17)])
		}
		for _, key := range keys {
			h := engine.HashSeed(key, seed)
			if got := byKey.Test(key); got != byHash.TestHash(h) {
				t.Fatalf("seed %#x, %d-byte key: Test = %v, TestHash of HashSeed = %v", seed, len(key), got, !got)
			}
			byKey.Add(key)
			byHash.AddHash(h)
			byTAA.TestAndAdd(key)
			if !byKey.Equal(byHash) || !byTAA.Equal(byHash) {
				t.Fatalf("seed %#x, %d-byte key: Add or TestAndAdd set other bits than AddHash of HashSeed", seed, len(key))
			}
		}
		data, err := byKey.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		for _, key := range keys {
			if !back.Test(key) || !back.TestAndAdd(key) {
				t.Fatalf("seed %#x: a %d-byte key added before the round trip tests absent after it", seed, len(key))
			}
		}
	}
}

// TestAndAddUint64 answers and sets what TestAndAdd of the key's 8
// little-endian bytes does, on every kernel level.
func TestTestAndAddUint64(t *testing.T) {
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		byInt, _ := NewMK(64*512, 6, engine.WithSeed(7))
		byBytes, _ := NewMK(64*512, 6, engine.WithSeed(7))
		for i := range uint64(5000) {
			k := i * 0x9e3779b97f4a7c15 % 3000 // repeats: both answers occur
			if got, want := byInt.TestAndAddUint64(k), byBytes.TestAndAdd(binary.LittleEndian.AppendUint64(nil, k)); got != want {
				t.Fatalf("key %d: TestAndAddUint64 = %v, TestAndAdd of its bytes %v", k, got, want)
			}
		}
		if !byInt.Equal(byBytes) {
			t.Fatal("TestAndAddUint64 set other bits than TestAndAdd of the same bytes")
		}
	})
}
