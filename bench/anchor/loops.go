package main

import "github.com/filterengine/filterengine/blocked"

// The one-key-per-call loops, each a function of its own: the inliner
// gives a function as large as runOurs (and the closures compiled inside
// it) a budget too small for even the one-line TestUint64 method, which
// then stays a call of its own around the call into assembly; a loop in
// a function of ordinary size, as in a service's handler, inlines the
// method and calls the kernel directly. noinline keeps them out of
// runOurs.

//go:noinline
func addEach(f *blocked.Filter, ks []uint64) {
	for _, x := range ks {
		f.AddUint64(x)
	}
}

//go:noinline
func testEach(f *blocked.Filter, ks []uint64) (hits int) {
	for _, x := range ks {
		if f.TestUint64(x) {
			hits++
		}
	}
	return hits
}

// addEachBytes and testEachBytes take the 8-byte keys packed in b.

//go:noinline
func addEachBytes(f *blocked.Filter, b []byte) {
	for i := 0; i+8 <= len(b); i += 8 {
		f.Add(b[i : i+8])
	}
}

//go:noinline
func testEachBytes(f *blocked.Filter, b []byte) (hits int) {
	for i := 0; i+8 <= len(b); i += 8 {
		if f.Test(b[i : i+8]) {
			hits++
		}
	}
	return hits
}
