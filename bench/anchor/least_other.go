//go:build !amd64 || !gc || purego

package main

// hasLeastWork is false: there are no grouped kernels here.
func hasLeastWork() bool { return false }

// leastWork is never called where hasLeastWork is false.
func leastWork(_, _ []uint64, _ []bool, _ uint32, _ uint64) int { return 0 }
