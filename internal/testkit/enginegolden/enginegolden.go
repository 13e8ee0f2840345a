// Package enginegolden holds what formats/leveldb's tests share with the
// bench module's interop tests: the golden filters' key sets and budgets,
// the file of records the engines' own writers (goleveldb, Pebble)
// produced for them, and the fuzz targets' way of cutting bytes into
// keys. The interop tests write the files from the engines; the library's
// tests read them without the engines. Only _test files import it.
package enginegolden

import (
	"encoding/binary"
	"errors"
)

// Keys is the key set of n keys: key i has length i%41 and bytes across
// 0..255.
func Keys(n int) [][]byte {
	keys := make([][]byte, n)
	for i := range keys {
		keys[i] = make([]byte, i%41)
		for j := range keys[i] {
			keys[i][j] = byte(i*131 + j*29 + 0x70)
		}
	}
	return keys
}

// Case is one golden filter: the filter of Keys(N) at BitsPerKey.
type Case struct {
	N, BitsPerKey int
	Filter        []byte
}

// Budgets are the (keys, bits per key) pairs of the golden files, 0 bits
// per key included.
var Budgets = [][2]int{{0, 10}, {1, 10}, {3, 1}, {41, 2}, {100, 5}, {1000, 10}, {2000, 16}, {500, 40}, {3, 0}, {1000, 0}, {700, 100}}

// Encode returns the file of the cases: per case its keys, bits per key
// and filter length (uint32 little-endian each), then the filter.
func Encode(cases []Case) []byte {
	var out []byte
	for _, c := range cases {
		out = binary.LittleEndian.AppendUint32(out, uint32(c.N))
		out = binary.LittleEndian.AppendUint32(out, uint32(c.BitsPerKey))
		out = binary.LittleEndian.AppendUint32(out, uint32(len(c.Filter)))
		out = append(out, c.Filter...)
	}
	return out
}

// Decode reads what Encode writes.
func Decode(data []byte) ([]Case, error) {
	var cases []Case
	for len(data) > 0 {
		if len(data) < 12 {
			return nil, errors.New("truncated record")
		}
		n, bpk, size := binary.LittleEndian.Uint32(data), binary.LittleEndian.Uint32(data[4:]), binary.LittleEndian.Uint32(data[8:])
		data = data[12:]
		if uint64(len(data)) < uint64(size) {
			return nil, errors.New("truncated filter")
		}
		cases = append(cases, Case{int(n), int(bpk), data[:size]})
		data = data[size:]
	}
	return cases, nil
}

// Cut splits data into n keys whose lengths the data picks (a fuzz
// input's keys); keys past the data are empty.
func Cut(data []byte, n int) [][]byte {
	keys := make([][]byte, n)
	for i := range keys {
		if len(data) == 0 {
			break
		}
		l := int(data[0]) % (len(data) + 1)
		keys[i], data = data[:l], data[l:]
	}
	return keys
}
