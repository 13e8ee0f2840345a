//go:build !amd64 || !gc || purego

package asm

func sbbfTestHashes(words []uint64, hs []uint64, out []bool) int {
	return sbbfTestHashesGeneric(words, hs, out)
}

func sbbfAddHashes(words []uint64, hs []uint64) { sbbfAddHashesGeneric(words, hs) }

func xxh64Uint64s(dst, ks []uint64) { xxh64Uint64sGeneric(dst, ks) }
