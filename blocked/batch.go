package blocked

import (
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/internal/batch"
)

// keyBatch is the package's one "hash a chunk of keys on the stack, hand
// it to the type's hash form" helper, behind the Uint64s and Keys batch
// forms of every type: Filter, Narrow, Scalable and Window. It
// names its type with one non-nil field and reaches the type's AddHashes
// and TestHashes through a switch, not an interface or a type parameter:
// a call through either would move the chunk buffer to the heap, one
// allocation per batch call. Filter's chunks carry the next keys' hashes
// for its kernels to prefetch (ahead); the derived types' do not.
type keyBatch struct {
	f  *Filter
	n  *Narrow
	sc *Scalable
	w  *Window
}

// name is the type's name for batch.Out's message.
func (t keyBatch) name() string {
	switch {
	case t.f != nil:
		return "blocked.Filter"
	case t.n != nil:
		return "blocked.Narrow"
	case t.sc != nil:
		return "blocked.Scalable"
	}
	return "blocked.Window"
}

// hash fills b with the hashes of the chunk of keys from base on, ints
// or bytes (one of them is nil), as the type hashes keys.
func (t keyBatch) hash(b *batch.Hashes, ints []uint64, bytes [][]byte, base int) []uint64 {
	var seed uint64
	switch {
	case t.f != nil:
		seed = t.f.p.Seed
	case t.n != nil:
		seed = t.n.seed
	case t.sc != nil:
		seed = t.sc.seed
	default:
		seed = t.w.seed
	}
	if bytes != nil {
		return b.Keys(bytes[base:], seed)
	}
	return b.Uint64s(ints[base:], seed)
}

func (t keyBatch) addHashes(hs []uint64) {
	switch {
	case t.f != nil:
		t.f.AddHashes(hs)
	case t.n != nil:
		t.n.AddHashes(hs)
	case t.sc != nil:
		t.sc.AddHashes(hs)
	default:
		t.w.AddHashes(hs)
	}
}

func (t keyBatch) testHashes(hs []uint64, out []bool) int {
	switch {
	case t.f != nil:
		return t.f.TestHashes(hs, out)
	case t.n != nil:
		return t.n.TestHashes(hs, out)
	case t.sc != nil:
		return t.sc.TestHashes(hs, out)
	}
	return t.w.TestHashes(hs, out)
}

// add adds the n keys of ints or bytes, a chunk at a time.
func (t keyBatch) add(ints []uint64, bytes [][]byte, n int) {
	if t.f != nil {
		t.f.addAhead(ints, bytes, n)
		return
	}
	var b batch.Hashes
	for base := 0; base < n; base += batch.Chunk {
		t.addHashes(t.hash(&b, ints, bytes, base))
	}
}

// test sets out[i] to Test of key i of the n keys of ints or bytes, a
// chunk at a time, and returns the number of hits.
func (t keyBatch) test(ints []uint64, bytes [][]byte, n int, out []bool) int {
	out = batch.Out(t.name(), out, n)
	if t.f != nil {
		return t.f.testAhead(ints, bytes, n, out)
	}
	var b batch.Hashes
	hits := 0
	for base := 0; base < n; base += batch.Chunk {
		hits += t.testHashes(t.hash(&b, ints, bytes, base), out[base:])
	}
	return hits
}

// ahead hashes a Filter's keys a chunk at a time together with the
// asm.BlockedAhead keys after the chunk, whose lines the kernel
// prefetches while it works on the chunk; those hashes move to the front
// for the next chunk instead of being computed again. The prefetch window
// so runs on across chunks, as it would over one slice of hashes.
type ahead struct {
	b [batch.Chunk + asm.BlockedAhead]uint64
	// from and carry: b[from:from+carry] hold the hashes of the next
	// chunk's first keys.
	from, carry int
}

// next returns the hashes of the keys of ints or bytes from base on, as
// many as b holds, and how many of them (at most a chunk) to process.
func (a *ahead) next(f *Filter, ints []uint64, bytes [][]byte, n, base int) ([]uint64, int) {
	copy(a.b[:a.carry], a.b[a.from:a.from+a.carry])
	hs := a.b[:min(n-base, len(a.b))]
	rest := hs[a.carry:]
	from := base + a.carry
	if bytes != nil {
		for i, key := range bytes[from : from+len(rest)] {
			rest[i] = f.p.Hash(key)
		}
	} else {
		asm.HashUint64s(rest, ints[from:from+len(rest)], f.p.Seed)
	}
	c := min(n-base, batch.Chunk)
	a.from, a.carry = c, len(hs)-c
	return hs, c
}

// addAhead adds the n keys of ints or bytes: whole groups of 8-byte keys
// through asm's grouped kernel where the level has it, the rest a chunk
// at a time.
func (f *Filter) addAhead(ints []uint64, bytes [][]byte, n int) {
	base := 0
	if ints != nil {
		base = asm.BlockedAddUint64s(f.p.Words, f.p.K, f.p.Seed, ints[:n])
	}
	if base < n {
		f.addChunks(ints, bytes, n, base)
	}
	runtime.KeepAlive(f.storage)
}

// addChunks adds keys base..n-1 a chunk at a time. The chunk buffer is
// declared here, so that a batch the grouped kernel takes whole does not
// clear it.
func (f *Filter) addChunks(ints []uint64, bytes [][]byte, n, base int) {
	var a ahead
	for base < n {
		hs, c := a.next(f, ints, bytes, n, base)
		asm.BlockedAddHashesAhead(f.p.Words, f.p.K, hs, c)
		base += c
	}
}

// testAhead sets out[i] to Test of key i of the n keys of ints or bytes
// and returns the number of hits; out holds n answers. The keys go as
// addAhead's do.
func (f *Filter) testAhead(ints []uint64, bytes [][]byte, n int, out []bool) int {
	hits, base := 0, 0
	if ints != nil {
		hits, base = asm.BlockedTestUint64s(f.p.Words, f.p.K, f.p.Seed, ints[:n], out[:n])
	}
	if base < n {
		hits += f.testChunks(ints, bytes, n, base, out)
	}
	runtime.KeepAlive(f.storage)
	return hits
}

// testChunks is testAhead of keys base..n-1, a chunk at a time.
func (f *Filter) testChunks(ints []uint64, bytes [][]byte, n, base int, out []bool) int {
	var a ahead
	hits := 0
	for base < n {
		hs, c := a.next(f, ints, bytes, n, base)
		hits += asm.BlockedTestHashesAhead(f.p.Words, f.p.K, hs, out[base:base+c])
		base += c
	}
	return hits
}
