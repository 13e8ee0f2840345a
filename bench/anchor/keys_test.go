package main

import "testing"

// The first keys the C++ side prints for n = 1e6 (its INFO keys line):
// both sides measure the very same keys in the same order.
func TestKeysMatchCPP(t *testing.T) {
	k := makeKeys(1000000)
	for _, c := range []struct {
		name      string
		got, want uint64
	}{
		{"first member", k.members[0], 0x1c948e1575796814},
		{"first absent", k.absent[0], 0x650f7fb3ec9054cf},
		{"first lookup", k.lookup[0], 0xf594007c32d5b61f},
	} {
		if c.got != c.want {
			t.Errorf("%s = %016x, the C++ side's is %016x", c.name, c.got, c.want)
		}
	}
}
