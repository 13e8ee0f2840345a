package store

import (
	"encoding/binary"
	"unsafe"
)

// littleEndian is true on hosts whose memory order is the format's.
var littleEndian = func() bool { x := uint16(1); return *(*byte)(unsafe.Pointer(&x)) == 1 }()

// WordsBytes returns w as little-endian bytes: a view on little-endian
// hosts, a copy elsewhere.
func WordsBytes(w []uint64) []byte {
	if len(w) == 0 {
		return nil
	}
	if littleEndian {
		return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 8*len(w))
	}
	b := make([]byte, 8*len(w))
	for i, v := range w {
		binary.LittleEndian.PutUint64(b[8*i:], v)
	}
	return b
}

// CopyWords fills dst from little-endian bytes; len(src) must be
// 8*len(dst).
func CopyWords(dst []uint64, src []byte) {
	if len(src) != 8*len(dst) {
		panic("engine: CopyWords length mismatch")
	}
	if littleEndian && len(dst) > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), len(src)), src)
		return
	}
	for i := range dst {
		dst[i] = binary.LittleEndian.Uint64(src[8*i:])
	}
}
