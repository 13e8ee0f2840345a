package counting

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

// Test and its forms, one kernel call each (asm.CountingTestKey), answer
// Count(key) > 0 (the Go walker of the same counters) on every level, for
// both widths, k inside and beyond one round, keys of every length around
// 8, a Clone and an unmarshalled copy; a closed filter panics with the zero
// Filter's message instead of reading released memory.
func TestSingleKeyTestMatchesCount(t *testing.T) {
	for _, c := range []struct {
		bits int
		k    uint32
	}{{4, 1}, {4, 6}, {4, 8}, {4, 9}, {4, 10}, {4, 16}, {8, 5}, {8, 10}, {8, 12}} {
		t.Run(fmt.Sprintf("%dbit/k=%d", c.bits, c.k), func(t *testing.T) {
			f, err := NewMK(40000, c.k, WithCounterBits(c.bits), engine.WithSeed(uint64(c.k)))
			if err != nil {
				t.Fatal(err)
			}
			keys := make([][]byte, 6000)
			for i := range keys {
				key := make([]byte, 16)
				binary.LittleEndian.PutUint64(key, uint64(i)*0x9e3779b97f4a7c15+3)
				binary.LittleEndian.PutUint64(key[8:], uint64(i))
				keys[i] = key[:8]
				if i%5 == 0 {
					keys[i] = key[:i%17]
				}
				if i < 2000 {
					f.Add(keys[i])
				}
			}
			data, err := f.MarshalBinary()
			g := new(Filter) // decoded in place: UnmarshalBinary replaces the probe too
			if err == nil {
				err = g.UnmarshalBinary(data)
			}
			if err != nil {
				t.Fatal(err)
			}
			absent := 0
			kerneltest.ForEachLevel(t, func(t *testing.T) {
				for _, x := range []*Filter{f, f.Clone(), g} {
					for i, key := range keys {
						want := x.Count(key) > 0
						if x.Test(key) != want || x.TestString(string(key)) != want || x.TestHash(x.hash(key)) != want {
							t.Fatalf("key %d (%x): Test %v, TestString %v, TestHash %v, Count %d",
								i, key, x.Test(key), x.TestString(string(key)), x.TestHash(x.hash(key)), x.Count(key))
						}
						if len(key) == 8 && x.TestUint64(binary.LittleEndian.Uint64(key)) != want {
							t.Fatalf("key %d: TestUint64 %v, Count %d", i, !want, x.Count(key))
						}
						if i < 2000 && !want {
							t.Fatalf("member %d absent", i)
						}
						if !want {
							absent++
						}
					}
				}
			})
			if absent == 0 {
				t.Fatal("every key tests present: the test cannot tell a kernel that answers true")
			}
			c := f.Clone()
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			defer func() {
				if r := recover(); r != "counting.Filter: zero value, use counting.New" {
					t.Fatalf("Test of a closed filter: panic %v", r)
				}
			}()
			c.Test(keys[0])
		})
	}
}
