//go:build !unix

package store

// canMap is false where no mmap is wired up: every array lives on the Go
// heap.
const canMap = false

func mapAnon(int, bool) ([]byte, bool, error) { panic("store: no mmap here") }

func unmapErr([]byte) error { return nil }
