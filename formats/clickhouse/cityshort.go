package clickhouse

import (
	"encoding/binary"
	"math/bits"

	"github.com/go-faster/city"
)

// k3 is CityHash's fourth multiplier (cityhash102's city.cc).
const k3 = 0xc949d7c7509e6557

// cityIn is CityHash64(b[s:e]) for any 0 <= s <= e <= len(b): the
// short-token form when b has room for its loads, the generic one otherwise.
func cityIn(b []byte, s, e int) uint64 {
	if e-s <= 16 && e > s && len(b) >= 8 {
		return cityShort(b, s, e)
	}
	return city.CH64(b[s:e])
}

// cityShort is CityHash v1.0.2's CityHash64 of b[s:e] for 1 <= e-s <= 16
// and len(b) >= 8, computed without a branch on the length: HashLen0to16
// has three forms (1-3, 4-8 and 9-16 bytes) and token lengths in text are
// too mixed for a branch on them to predict. The loads that need 8 (or 4)
// bytes are clamped inside b; a clamped load feeds only a form the length
// does not select.
func cityShort(b []byte, s, e int) uint64 {
	n := len(b)
	l := uint64(e - s)
	lo := binary.LittleEndian.Uint64(b[min(s, n-8):])
	hi := binary.LittleEndian.Uint64(b[max(e-8, 0):])
	lo4 := uint64(binary.LittleEndian.Uint32(b[min(s, n-4):]))
	hi4 := uint64(binary.LittleEndian.Uint32(b[max(e-4, 0):]))

	// 4 to 8 bytes: HashLen16(len + (a << 3), Fetch32(s + len - 4)).
	u, v, x := l+lo4<<3, hi4, uint64(0)
	if l > 8 { // 9 to 16: HashLen16(a, Rotate(b + len, len)) ^ b.
		u = lo
	}
	if l > 8 {
		v = bits.RotateLeft64(hi+l, -int(l))
	}
	if l > 8 {
		x = hi
	}
	h := Hash128to64(u, v) ^ x

	// 1 to 3 bytes: ShiftMix(y * k2 ^ z * k3) * k2.
	y := uint64(b[s]) + uint64(b[s+int(l>>1)])<<8
	z := l + uint64(b[e-1])<<2
	t := y*k2 ^ z*k3
	t = (t ^ t>>47) * k2
	if l < 4 {
		h = t
	}
	return h
}
