package main

import "math/bits"

// keySeed is the splitmix64 state both sides start from; the lookup
// order's state is keySeed ^ 0x5DEECE66D.
const keySeed = 0x1234567890ABCDEF

func splitmix64(s *uint64) uint64 {
	*s += 0x9E3779B97F4A7C15
	z := *s
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// keys are the anchor's keys for n: members are the first n outputs of
// splitmix64 from keySeed, absent keys the next n (all distinct,
// splitmix64 is a bijection of its counter), lookup the members shuffled
// by Fisher-Yates from the end with a multiply-high index drawn from a
// second stream. The C++ side (cpp/anchor.cpp) builds the very same.
type keys struct {
	members, absent, lookup []uint64
}

func makeKeys(n int) keys {
	k := keys{members: make([]uint64, n), absent: make([]uint64, n), lookup: make([]uint64, n)}
	s := uint64(keySeed)
	for i := range k.members {
		k.members[i] = splitmix64(&s)
	}
	for i := range k.absent {
		k.absent[i] = splitmix64(&s)
	}
	copy(k.lookup, k.members)
	r := uint64(keySeed ^ 0x5DEECE66D)
	for i := n - 1; i > 0; i-- {
		j, _ := bits.Mul64(splitmix64(&r), uint64(i+1))
		k.lookup[i], k.lookup[j] = k.lookup[j], k.lookup[i]
	}
	return k
}
