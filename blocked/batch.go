package blocked

import "github.com/filterengine/filterengine/internal/batch"

// keyBatch is the package's one "hash a chunk of keys on the stack, hand
// it to the type's hash form" helper, behind the Uint64s and Keys batch
// forms of every type: Filter, Narrow, Scalable and Window. It
// names its type with one non-nil field and reaches the type's AddHashes
// and TestHashes through a switch, not an interface or a type parameter:
// a call through either would move the chunk buffer to the heap, one
// allocation per batch call.
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
	var b batch.Hashes
	for base := 0; base < n; base += batch.Chunk {
		t.addHashes(t.hash(&b, ints, bytes, base))
	}
}

// test sets out[i] to Test of key i of the n keys of ints or bytes, a
// chunk at a time, and returns the number of hits.
func (t keyBatch) test(ints []uint64, bytes [][]byte, n int, out []bool) int {
	out = batch.Out(t.name(), out, n)
	var b batch.Hashes
	hits := 0
	for base := 0; base < n; base += batch.Chunk {
		hits += t.testHashes(t.hash(&b, ints, bytes, base), out[base:])
	}
	return hits
}
