//go:build amd64 && gc && !purego

package clickhouse

//go:noescape
func tokenMasksSSE2(dst []uint64, src []byte)

// tokenMasks sets dst[i] to the token mask of src[64i:64i+64] (SSE2, which
// every amd64 processor has: 16 bytes per range test).
func tokenMasks(dst []uint64, src []byte) {
	tokenMasksSSE2(dst, src[:64*len(dst)])
}
