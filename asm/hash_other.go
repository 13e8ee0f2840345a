//go:build !amd64 || !gc || purego

package asm

func hashUint64s(dst, ks []uint64, key uint64) { hashUint64sGeneric(dst, ks, key) }
