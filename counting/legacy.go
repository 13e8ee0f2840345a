package counting

import (
	"math/bits"
	"runtime"
	"sync/atomic"

	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/engine"
)

// The version-1 layout, kept so that files written before version 2
// decode and keep working: a line of 512 counters mirrors one 512-bit
// blocked line (blocked.Line, blocked.Mask): counter w*64+b is bit b of
// mask word w. The 64 counters of mask word w form chunk w, 4 words of
// 4-bit counters (counter b in byte b&31, low nibble for b < 32) or 8
// words of 8-bit counters (counter b is byte b). A filter in this layout
// answers, updates and serializes (as version 1) as it always did, by
// walking the key's mask; ToBlocked returns its blocked twin. New
// filters use the one-line layout.

// v1LineCounters is the number of counters of a version-1 line.
const v1LineCounters = blocked.LineBits

func v1ChunkWords(wide bool) uint64 {
	if wide {
		return 8
	}
	return 4
}

func v1LineWords(wide bool) uint64 { return 8 * v1ChunkWords(wide) }

// v1Place returns where counter b (0..63) of a chunk lives.
func v1Place(b uint64, wide bool) (word, shift uint64) {
	if wide {
		return b >> 3 & 7, (b & 7) << 3
	}
	return b >> 3 & 3, (b&7)<<3 | (b>>5&1)<<2
}

// v1ModelFPR is blocked.FPR of the twin.
func v1ModelFPR(n, lines uint64, k uint32) float64 {
	if n == 0 {
		return 0
	}
	return blocked.FPR(lines*v1LineCounters, n, k)
}

// cellSet is a key's counters grouped by word: for i < n, word idx[i] of
// the key's line holds the counters marked by the lowest bit in m[i].
type cellSet struct {
	n   int
	idx [engine.MaxK]uint32
	m   [engine.MaxK]uint64
}

// v1Cells fills s with h's counters and returns h's line.
func (f *Filter) v1Cells(h uint64, s *cellSet) []uint64 {
	chunk := v1ChunkWords(f.wide)
	s.n = 0
	for w, m := range blocked.Mask(h, f.k) {
		first := s.n
		for ; m != 0; m &= m - 1 {
			word, shift := v1Place(uint64(bits.TrailingZeros64(m)), f.wide)
			i := uint32(uint64(w)*chunk + word)
			j := first
			for j < s.n && s.idx[j] != i {
				j++
			}
			if j == s.n {
				s.idx[j], s.m[j] = i, 0
				s.n++
			}
			s.m[j] |= 1 << shift
		}
	}
	lw := v1LineWords(f.wide)
	return f.words[blocked.Line(h, f.lines)*lw:][:lw]
}

// incrementMask adds one to every counter of *p marked in m that is below
// its maximum, in one CAS, and returns the marks of those that were zero.
func (f *Filter) incrementMask(p *uint64, m uint64) (wasZero uint64) {
	for {
		old := load(p)
		inc := m &^ f.saturated(old)
		if inc == 0 || atomic.CompareAndSwapUint64(p, old, old+inc) {
			return m &^ f.nonzero(old)
		}
	}
}

// decrementMask subtracts one from every counter of *p marked in m that
// is neither saturated nor zero, in one CAS.
func (f *Filter) decrementMask(p *uint64, m uint64) {
	for {
		old := load(p)
		dec := m &^ f.saturated(old) & f.nonzero(old)
		if dec == 0 || atomic.CompareAndSwapUint64(p, old, old-dec) {
			return
		}
	}
}

func (f *Filter) v1TestAndAdd(h uint64) bool {
	var s cellSet
	ln := f.v1Cells(h, &s)
	var missing uint64
	for i := range s.n {
		missing |= f.incrementMask(&ln[s.idx[i]], s.m[i])
	}
	runtime.KeepAlive(f.storage)
	return missing == 0
}

// v1Missing returns the marks of h's counters that are zero, and h's
// cells.
func (f *Filter) v1Missing(h uint64, s *cellSet) (ln []uint64, missing uint64) {
	ln = f.v1Cells(h, s)
	for i := range s.n {
		missing |= s.m[i] &^ f.nonzero(load(&ln[s.idx[i]]))
	}
	return ln, missing
}

func (f *Filter) v1Test(h uint64) bool {
	var s cellSet
	_, missing := f.v1Missing(h, &s)
	runtime.KeepAlive(f.storage)
	return missing == 0
}

func (f *Filter) v1Remove(h uint64) bool {
	var s cellSet
	ln, missing := f.v1Missing(h, &s)
	if missing == 0 {
		for i := range s.n {
			f.decrementMask(&ln[s.idx[i]], s.m[i])
		}
	}
	runtime.KeepAlive(f.storage)
	return missing == 0
}

func (f *Filter) v1Count(h uint64) uint32 {
	var s cellSet
	ln := f.v1Cells(h, &s)
	least := f.counter
	for i := range s.n {
		x := load(&ln[s.idx[i]])
		for m := s.m[i]; m != 0; m &= m - 1 {
			least = min(least, x>>bits.TrailingZeros64(m)&f.counter)
		}
	}
	runtime.KeepAlive(f.storage)
	return uint32(least)
}

// ToBlocked returns the blocked filter (512-bit lines) whose bit w*64+b
// of line l is set exactly when counter w*64+b of line l is nonzero, for
// a filter decoded from a version-1 file; a filter of the one-line layout
// has ToBloom instead and gets an error wrapping engine.ErrParam.
func (f *Filter) ToBlocked(opts ...engine.Option) (*blocked.Filter, error) {
	f.mustHaveLines()
	opts, err := f.twinOptions("ToBlocked", opts)
	if err != nil {
		return nil, err
	}
	if !f.v1 {
		return nil, errLayout("ToBlocked", "version-1", "ToBloom")
	}
	chunkWords := v1ChunkWords(f.wide)
	words := make([]uint64, f.lines*8)
	for c := range words { // chunk c of the filter is word c of the blocked filter
		chunk := f.words[uint64(c)*chunkWords:][:chunkWords]
		var bitsOf uint64
		for i := range chunk {
			nz := f.nonzero(load(&chunk[i]))
			if f.wide {
				bitsOf |= gatherBytes(nz) << (8 * i)
			} else {
				bitsOf |= gatherBytes(nz)<<(8*i) | gatherBytes(nz>>4)<<(32+8*i)
			}
		}
		words[c] = bitsOf
	}
	runtime.KeepAlive(f.storage)
	return blocked.FromWords(words, f.k, opts...)
}
