package hadoop

import "math/bits"

// Positions is org.apache.hadoop.util.bloom.HashFunction.hash: the nbHash
// bit positions of key in a vector of vectorSize bits. Each position comes
// from a chain of 32-bit hashes, initval = hash(key, initval) starting from
// 0, so the i-th hash is seeded with the (i-1)-th; the position is
// Math.abs(initval % vectorSize) with Java's truncating remainder, so a
// negative hash gives |hash| mod vectorSize, not its unsigned value mod
// vectorSize. Positions may repeat. An empty key is an error, as in Hadoop.
func Positions(key []byte, vectorSize, nbHash int, h HashType) ([]int, error) {
	s, err := newShape(vectorSize, nbHash, h)
	if err != nil {
		return nil, err
	}
	if len(key) == 0 {
		return nil, errEmptyKey
	}
	return s.positions(key, nil), nil
}

var errEmptyKey = paramErr("empty key (Hadoop's HashFunction rejects a key of length 0)")

// position maps one raw hash to its bit, as HashFunction does:
// Math.abs(raw % vectorSize).
func position(raw int32, vectorSize int32) int {
	p := raw % vectorSize
	if p < 0 {
		p = -p
	}
	return int(p)
}

// position is position(raw, s.vectorSize) without a division: with a
// positive divisor, |raw % d| is |raw| mod d, and Lemire's fastmod computes
// a 32-bit remainder exactly from the 64-bit reciprocal.
func (s shape) position(raw int32) int {
	a := uint32(raw)
	if raw < 0 {
		a = -a // |MinInt32| is 2^31, exact as a uint32
	}
	hi, _ := bits.Mul64(s.reciprocal*uint64(a), uint64(s.vectorSize))
	return int(hi)
}

// positions appends the nbHash positions of a non-empty key to dst.
func (s shape) positions(key []byte, dst []int) []int {
	seed := int32(0)
	for i := int32(0); i < s.nbHash; i++ {
		seed = s.hash.hash32(key, seed)
		dst = append(dst, s.position(seed))
	}
	return dst
}
