package shifting

import (
	"encoding/binary"
	"testing"

	"github.com/filterengine/filterengine/asm"
)

// forEachLevel runs f once per kernel level the CPU has, as subtests.
func forEachLevel(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	for _, l := range asm.Available() {
		t.Run(l.String(), func(t *testing.T) {
			restore, err := asm.UseLevel(l)
			if err != nil {
				t.Fatal(err)
			}
			defer restore()
			f(t)
		})
	}
}

// keyOf returns the 8 little-endian bytes of k, the byte form of an
// integer key.
func keyOf(k uint64) []byte { return binary.LittleEndian.AppendUint64(nil, k) }

// members are integer keys [base, base+n); absent keys use another base so
// the two ranges never meet.
func members(base, n uint64) []uint64 {
	ks := make([]uint64, n)
	for i := range ks {
		ks[i] = base + uint64(i)
	}
	return ks
}

const (
	memberBase = 1 << 40
	absentBase = 1 << 50
)
