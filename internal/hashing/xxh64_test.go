package hashing

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// Published XXH64 values. Sources: ClickHouse's
// tests/queries/0_stateless/00803_xxhash.sql ("", "ABC", "xxhash", "foo",
// and the literal 0, a one-byte UInt8 there);
// the test table of github.com/cespare/xxhash/v2 (xxhash_test.go, TestAll:
// "a", "asdf", the 63-byte s63 that takes every code path, and seeded
// cases). The bench module checks XXH64 against cespare/xxhash/v2 itself
// over random inputs.
var xxh64Vectors = []struct {
	in   string
	seed uint64
	want uint64
}{
	{"", 0, 0xef46db3751d8e999},
	{"ABC", 0, 0xe66ae7354fcfee98},
	{"xxhash", 0, 0x32dd38952c4bc720},
	{"foo", 0, 3728699739546630719},
	{"\x00", 0, 16804241149081757544},
	{"a", 0, 0xd24ec4f1a98c6e5b},
	{"asdf", 0, 0x415872f599cea71e},
	{"Call me Ishmael. Some years ago--never mind how long precisely-", 0, 0x02a2e85470d6fd96},
	{"", 123, 0xe0db84de91f3e198},
	{"asdf", ^uint64(0), 0x9a2fd8473be539b6},
	{"Call me Ishmael. Some years ago--never mind how long precisely-", 54321, 0x1736d186daf5d1cd},
}

func TestXXH64Vectors(t *testing.T) {
	for _, v := range xxh64Vectors {
		if got := XXH64([]byte(v.in), v.seed); got != v.want {
			t.Errorf("XXH64(%q, %d) = %#x, want %#x", v.in, v.seed, got, v.want)
		}
		if v.seed == 0 {
			if got := XXH64String(v.in); got != v.want {
				t.Errorf("XXH64String(%q) = %#x, want %#x", v.in, got, v.want)
			}
		}
	}
}

func TestXXH64Uint64(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var b [8]byte
	for i := range 10000 {
		k := r.Uint64()
		if i < 3 {
			k = uint64(i) - 1
		}
		binary.LittleEndian.PutUint64(b[:], k)
		if got, want := XXH64Uint64(k), XXH64(b[:], 0); got != want {
			t.Fatalf("XXH64Uint64(%#x) = %#x, XXH64 of its bytes %#x", k, got, want)
		}
	}
}

func TestXXH64StringAllocs(t *testing.T) {
	s := "a string longer than thirty-two bytes, for the long path"
	if a := testing.AllocsPerRun(100, func() { XXH64String(s) }); a != 0 {
		t.Errorf("XXH64String allocates %v times", a)
	}
}
