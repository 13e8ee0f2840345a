//go:build !amd64 || !gc || purego

package clickhouse

// tokenMasks sets dst[i] to the token mask of src[64i:64i+64].
func tokenMasks(dst []uint64, src []byte) { tokenMasksGeneric(dst, src) }
