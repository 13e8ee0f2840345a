package batch

import (
	"testing"

	"github.com/filterengine/filterengine/internal/hashing"
)

func TestXXH64Forms(t *testing.T) {
	for _, n := range []int{0, 1, 7, 9, Chunk, Chunk + 1} {
		keys := make([][]byte, n)
		ks := make([]uint64, n)
		for i := range keys {
			ks[i] = uint64(i) * 0x9e3779b97f4a7c15
			keys[i] = []byte{byte(i), 'x'}
		}
		var b Hashes
		if hs := b.XXH64Keys(keys); len(hs) != min(n, Chunk) {
			t.Fatalf("n=%d: XXH64Keys gave %d hashes", n, len(hs))
		} else {
			for i, h := range hs {
				if h != hashing.XXH64(keys[i], 0) {
					t.Fatalf("n=%d: key %d hashed wrong", n, i)
				}
			}
		}
		hs := b.XXH64Uint64s(ks)
		if len(hs) != min(n, Chunk) {
			t.Fatalf("n=%d: XXH64Uint64s gave %d hashes", n, len(hs))
		}
		for i, h := range hs {
			if h != hashing.XXH64Uint64(ks[i]) {
				t.Fatalf("n=%d: integer key %d hashed wrong", n, i)
			}
		}
	}
	keys, ks := [][]byte{[]byte("a")}, []uint64{1, 2}
	if a := testing.AllocsPerRun(100, func() {
		var b Hashes
		_ = b.XXH64Keys(keys)
		_ = b.XXH64Uint64s(ks)
	}); a != 0 {
		t.Fatalf("%v allocations per run, want 0", a)
	}
}
