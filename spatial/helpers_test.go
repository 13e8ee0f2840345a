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

// packCells lays labels out as the filter stores them, one byte at a time:
// 4-bit cells two a byte (cell 2i in the low nibble), 8-bit bytes, 16-bit
// little-endian pairs. It is written independently of the filter's 32-bit
// word access.
func packCells(labels []uint16, cellLog uint) []byte {
	var out []byte
	switch cellLog {
	case 2:
		out = make([]byte, (len(labels)+1)/2)
		for i, v := range labels {
			out[i/2] |= byte(v&0xf) << (4 * (i % 2))
		}
	case 3:
		for _, v := range labels {
			out = append(out, byte(v))
		}
	default:
		for _, v := range labels {
			out = append(out, byte(v), byte(v>>8))
		}
	}
	return out
}
