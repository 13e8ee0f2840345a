package dataset

import "github.com/filterengine/filterengine/engine"

// DistinctCounts returns, for each checkpoint c (ascending, at most
// Len()), the number of distinct keys among the first c. Keys are
// identified by their 64-bit XXH3 hash; at 1e8 keys the chance that two
// distinct keys share one is below 3e-4.
func (k *Keys) DistinctCounts(checkpoints []int) []int {
	out := make([]int, len(checkpoints))
	set := newHashSet(1024)
	i := 0
	for ci, c := range checkpoints {
		for ; i < c; i++ {
			set.add(engine.Hash(k.Key(i)))
		}
		out[ci] = set.n
	}
	return out
}

// hashSet is an open-addressing set of 64-bit hashes, linear probing; 0
// is kept aside since it marks an empty slot.
type hashSet struct {
	slots   []uint64
	n       int
	hasZero bool
}

func newHashSet(capacity int) *hashSet {
	size := 16
	for size < 2*capacity {
		size *= 2
	}
	return &hashSet{slots: make([]uint64, size)}
}

func (s *hashSet) add(h uint64) {
	if h == 0 {
		if !s.hasZero {
			s.hasZero = true
			s.n++
		}
		return
	}
	if 2*(s.n+1) > len(s.slots) {
		s.grow()
	}
	if s.insert(h) {
		s.n++
	}
}

func (s *hashSet) insert(h uint64) bool {
	mask := uint64(len(s.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case 0:
			s.slots[i] = h
			return true
		case h:
			return false
		}
	}
}

func (s *hashSet) grow() {
	old := s.slots
	s.slots = make([]uint64, 2*len(old))
	for _, h := range old {
		if h != 0 {
			s.insert(h)
		}
	}
}
