//go:build !linux

package store

// mapHuge keeps arrays on the heap where huge-page advice is not wired up.
func mapHuge(int) ([]byte, error) { return nil, nil }

func unmapErr([]byte) error { return nil }
