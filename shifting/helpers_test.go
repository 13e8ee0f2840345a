package shifting

import "encoding/binary"

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
