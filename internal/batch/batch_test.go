package batch

import (
	"strings"
	"testing"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
)

func TestKeysAndUint64s(t *testing.T) {
	const seed = 7
	for _, n := range []int{0, 1, Chunk - 1, Chunk, Chunk + 1, 3*Chunk + 5} {
		keys := make([][]byte, n)
		ks := make([]uint64, n)
		for i := range keys {
			ks[i] = uint64(i)*0x9e3779b97f4a7c15 + 1
			keys[i] = []byte{byte(i), byte(i >> 8), 'k'}
		}
		var b Hashes
		for base := 0; base < n; base += Chunk {
			hs := b.Keys(keys[base:], seed)
			if want := min(Chunk, n-base); len(hs) != want {
				t.Fatalf("n=%d base=%d: Keys gave %d hashes, want %d", n, base, len(hs), want)
			}
			for i, h := range hs {
				if h != engine.HashSeed(keys[base+i], seed) {
					t.Fatalf("n=%d: key %d hashed wrong", n, base+i)
				}
			}
			hs = b.Uint64s(ks[base:], seed)
			want := make([]uint64, len(hs))
			asm.HashUint64s(want, ks[base:base+len(hs)], seed)
			for i := range hs {
				if hs[i] != want[i] {
					t.Fatalf("n=%d: integer key %d hashed wrong", n, base+i)
				}
			}
		}
	}
}

func TestOut(t *testing.T) {
	out := make([]bool, 5)
	if got := Out("x", out, 3); len(got) != 3 {
		t.Fatalf("Out gave %d elements, want 3", len(got))
	}
	defer func() {
		msg, _ := recover().(string)
		if !strings.Contains(msg, "fam: out has 5 elements for 6 keys") {
			t.Fatalf("short out panicked with %q", msg)
		}
	}()
	Out("fam", out, 6)
	t.Fatal("short out did not panic")
}

func TestNoAllocs(t *testing.T) {
	keys := [][]byte{[]byte("a"), []byte("bb")}
	ks := []uint64{1, 2, 3}
	out := make([]bool, 3)
	if a := testing.AllocsPerRun(100, func() {
		var b Hashes
		_ = b.Keys(keys, 1)
		_ = b.Uint64s(ks, 1)
		_ = Out("x", out, 3)
	}); a != 0 {
		t.Fatalf("%v allocations per run, want 0", a)
	}
}
