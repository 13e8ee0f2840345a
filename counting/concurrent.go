package counting

// The *Concurrent forms of the family contract (engine's doc). Every
// write of a counting filter is atomic (one CAS per counter) and every
// read loads each word atomically, so each form is its plain method.

// AddConcurrent is Add.
func (f *Filter) AddConcurrent(key []byte) { f.Add(key) }

// AddHashConcurrent is AddHash.
func (f *Filter) AddHashConcurrent(h uint64) { f.addHash(h) }

// AddHashesConcurrent is AddHashes.
func (f *Filter) AddHashesConcurrent(hs []uint64) { f.AddHashes(hs) }

// AddUint64sConcurrent is AddUint64s.
func (f *Filter) AddUint64sConcurrent(ks []uint64) { f.AddUint64s(ks) }

// TestConcurrent is Test.
func (f *Filter) TestConcurrent(key []byte) bool { return f.Test(key) }

// TestHashConcurrent is TestHash.
func (f *Filter) TestHashConcurrent(h uint64) bool { return f.TestHash(h) }
