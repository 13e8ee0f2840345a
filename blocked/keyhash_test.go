package blocked

import (
	"encoding/binary"
	"testing"

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
