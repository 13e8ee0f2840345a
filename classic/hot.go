package classic

import (
	"math/bits"
	"runtime"
	"unsafe"

	"github.com/filterengine/filterengine/internal/batch"
	"github.com/filterengine/filterengine/internal/store"
)

// The single-key probe loops, shared by the scalar methods and the batch
// forms (which run them key after key). Each is a plain function of few
// live values, so a, b, m and the array pointer stay in registers; the
// m <= 2^32 choice of reduce is made once per key, not per probe; and the
// word is read through the array pointer without a bounds check: a
// position is below m and the array holds ceil(m/64) words, which every
// constructor and decoder guarantees.

// array returns the first word of st's array, or panics with the
// zero-value message when st is nil (a Filter not made by a constructor):
// one compare that takes the place of the nil check st.Words() needs.
func array(st *store.Storage) unsafe.Pointer {
	if st == nil {
		zeroFilter()
	}
	return unsafe.Pointer(unsafe.SliceData(st.Words()))
}

// zeroFilter is the panic of every method of a zero Filter, out of line
// so that the check costs its callers little inlining budget.
//
//go:noinline
func zeroFilter() { batch.Zero("classic.Filter", "classic.New") }

// word returns word i/64 of the array at p.
func word(p unsafe.Pointer, i uint64) *uint64 { return (*uint64)(unsafe.Add(p, i>>6<<3)) }

// testHash reports whether all k probes of h are set in the m-bit array
// of st; it stops at the first clear bit.
func testHash(st *store.Storage, m uint64, k uint32, h uint64) bool {
	p := array(st)
	a, b := h, second(h)
	ok := true
	if m <= 1<<32 {
		for range k {
			i := (a >> 32) * m >> 32
			if *word(p, i)&(1<<(i&63)) == 0 {
				ok = false
				break
			}
			a, b = a+b, b+phi
		}
	} else {
		for range k {
			i, _ := bits.Mul64(a, m)
			if *word(p, i)&(1<<(i&63)) == 0 {
				ok = false
				break
			}
			a, b = a+b, b+phi
		}
	}
	runtime.KeepAlive(st)
	return ok
}

// addHash sets the k probes of h in the m-bit array of st.
func addHash(st *store.Storage, m uint64, k uint32, h uint64) {
	p := array(st)
	a, b := h, second(h)
	if m <= 1<<32 {
		for range k {
			i := (a >> 32) * m >> 32
			*word(p, i) |= 1 << (i & 63)
			a, b = a+b, b+phi
		}
	} else {
		for range k {
			i, _ := bits.Mul64(a, m)
			*word(p, i) |= 1 << (i & 63)
			a, b = a+b, b+phi
		}
	}
	runtime.KeepAlive(st)
}

// testAndAddHash sets the k probes of h and reports whether all were set
// before.
func testAndAddHash(st *store.Storage, m uint64, k uint32, h uint64) bool {
	present := testHash(st, m, k, h)
	if !present {
		addHash(st, m, k, h)
	}
	return present
}
