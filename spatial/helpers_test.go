package spatial

import (
	"encoding/binary"
	"testing"
)

// keyOf is the i-th test key of a set: 8 bytes so that its uint64 form
// is the same key.
func keyOf(set, i uint64) []byte {
	return binary.LittleEndian.AppendUint64(nil, set<<40^i)
}

func keysOf(set uint64, n int) ([][]byte, []uint64) {
	keys := make([][]byte, n)
	ks := make([]uint64, n)
	for i := range keys {
		ks[i] = set<<40 ^ uint64(i)
		keys[i] = keyOf(set, uint64(i))
	}
	return keys, ks
}

func mustNew(t testing.TB, n uint64, areas int, p float64) *Filter {
	t.Helper()
	f, err := New(n, areas, p)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
