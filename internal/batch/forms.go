package batch

import "unsafe"

// The key forms every family's batch methods share. Each hashes the keys
// one Chunk at a time into a buffer on its own stack and hands the hashes
// to the family's hash kernel, given as a method value:
//
//	func (f *Filter) TestKeys(keys [][]byte, out []bool) int {
//		return batch.TestKeys(f.TestHashes, keys, f.seed, batch.Out("classic", out, len(keys)))
//	}
//
// The kernel must not keep hs (or out) after it returns, which no batch
// method does: it is the //go:noescape rule of the assembly kernels, and
// it is what lets the buffer stay on the stack behind a call the compiler
// cannot see into (TestNoAllocs holds every form to zero allocations).

// AddKeys hashes keys with seed (engine.HashSeed) and adds them with add.
func AddKeys(add func(hs []uint64), keys [][]byte, seed uint64) {
	var b Hashes
	for base := 0; base < len(keys); base += Chunk {
		add(noescape(b.Keys(keys[base:], seed)))
	}
}

// AddUint64s hashes the 8 little-endian bytes of every key with seed, in
// batch, and adds them with add.
func AddUint64s(add func(hs []uint64), ks []uint64, seed uint64) {
	var b Hashes
	for base := 0; base < len(ks); base += Chunk {
		add(noescape(b.Uint64s(ks[base:], seed)))
	}
}

// TestKeys hashes keys with seed and tests them with test, which sets
// out[i] for hs[i] and returns its hits (spatial's Check answers an area,
// the others a bool); it returns the hits of all. out must hold len(keys)
// answers (see Out).
func TestKeys[T any](test func(hs []uint64, out []T) int, keys [][]byte, seed uint64, out []T) int {
	var b Hashes
	hits := 0
	for base := 0; base < len(keys); base += Chunk {
		hits += test(noescape(b.Keys(keys[base:], seed)), noescape(out[base:]))
	}
	return hits
}

// TestUint64s is TestKeys of the 8 little-endian bytes of every key,
// hashed in batch.
func TestUint64s[T any](test func(hs []uint64, out []T) int, ks []uint64, seed uint64, out []T) int {
	var b Hashes
	hits := 0
	for base := 0; base < len(ks); base += Chunk {
		hits += test(noescape(b.Uint64s(ks[base:], seed)), noescape(out[base:]))
	}
	return hits
}

// noescape returns s unchanged, hidden from escape analysis, which would
// otherwise move the caller's buffer to the heap because it cannot see
// that the kernel behind a func value keeps nothing (the runtime's own
// noescape does the same). The address travels through a uintptr held in
// memory, a conversion go vet's unsafeptr rule accepts.
func noescape[T any](s []T) []T {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	return unsafe.Slice(*(**T)(unsafe.Pointer(&p)), len(s))
}
