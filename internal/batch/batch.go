// Package batch is the one helper every family's batch forms share: hash a
// chunk of keys into a buffer on the stack, hand the hashes to the
// family's kernel, and check the caller's out slice with one readable
// message.
//
// The key forms (AddKeys, AddUint64s, TestKeys, TestUint64s) take the
// family's hash kernel as a method value and allocate nothing:
//
//	func (f *Filter) TestKeys(keys [][]byte, out []bool) int {
//		return batch.TestKeys(f.TestHashes, keys, f.seed, batch.Out("classic", out, len(keys)))
//	}
//
// A family whose loop does more per chunk declares the buffer itself, so
// that it stays on its stack:
//
//	var b batch.Hashes
//	for base := 0; base < len(keys); base += batch.Chunk {
//		hs := b.Keys(keys[base:], f.seed)
//		...
//	}
package batch

import (
	"fmt"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
)

// Chunk is how many keys one Hashes buffer holds: 2 KiB of hashes, small
// enough for the stack and long enough that a kernel's setup is paid once
// per 256 keys.
const Chunk = 256

// Hashes is one chunk of key hashes.
type Hashes [Chunk]uint64

// Keys hashes the first min(len(keys), Chunk) keys with seed
// (engine.HashSeed) and returns those hashes.
func (b *Hashes) Keys(keys [][]byte, seed uint64) []uint64 {
	c := keys[:min(len(keys), Chunk)]
	hs := b[:len(c)]
	for i, k := range c {
		hs[i] = engine.HashSeed(k, seed)
	}
	return hs
}

// Uint64s hashes the 8 little-endian bytes of the first
// min(len(ks), Chunk) keys with seed, in batch (asm.HashUint64s), and
// returns those hashes.
func (b *Hashes) Uint64s(ks []uint64, seed uint64) []uint64 {
	c := ks[:min(len(ks), Chunk)]
	asm.HashUint64s(b[:len(c)], c, seed)
	return b[:len(c)]
}

// Out returns out[:n], or panics with one readable message, naming the
// family, when out is shorter than the n keys it must answer for.
func Out[T any](family string, out []T, n int) []T {
	if len(out) < n {
		shortOut(family, len(out), n)
	}
	return out[:n]
}

// shortOut is Out's panic, kept out of line so that Out stays inlinable.
func shortOut(family string, have, n int) {
	panic(fmt.Sprintf("%s: out has %d elements for %d keys; it must be at least as long as the keys", family, have, n))
}

// Zero panics with the message every family gives when a method is called
// on a zero value: the name of the type and of its constructor.
func Zero(typ, constructor string) {
	panic(fmt.Sprintf("%s: zero value, use %s", typ, constructor))
}
