//go:build !amd64 || !gc || purego

package asm

func detect() Level { return Generic }
