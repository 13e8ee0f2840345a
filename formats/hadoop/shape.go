package hadoop

import "math"

// shape is the part every Hadoop filter shares (org.apache.hadoop.util.
// bloom.Filter's fields): the vector size, the number of hashes and the
// hash type.
type shape struct {
	vectorSize int32
	nbHash     int32
	hash       HashType
	// reciprocal is ceil(2^64 / vectorSize), for position without a
	// division.
	reciprocal uint64
}

// newShape validates the constructor arguments as HashFunction does:
// vectorSize and nbHash positive Java ints and a known hash type.
func newShape(vectorSize, nbHash int, h HashType) (shape, error) {
	if vectorSize <= 0 || vectorSize > math.MaxInt32 {
		return shape{}, paramErr("vectorSize %d outside [1, 2^31-1]", vectorSize)
	}
	if nbHash <= 0 || nbHash > math.MaxInt32 {
		return shape{}, paramErr("nbHash %d outside [1, 2^31-1]", nbHash)
	}
	if !h.valid() {
		return shape{}, paramErr("unknown hash type %d (want Jenkins 0 or Murmur 1)", h)
	}
	return shape{vectorSize: int32(vectorSize), nbHash: int32(nbHash), hash: h,
		reciprocal: ^uint64(0)/uint64(vectorSize) + 1}, nil
}

// combinable checks the operands of a set operation: two initialized
// filters (ready reports that) of one shape. Hadoop checks only vectorSize
// and nbHash; the hash type is checked here too, since filters hashed
// differently combine into nonsense.
func (s shape) combinable(o shape, ready bool, class, op string) error {
	if !ready {
		return paramErr("%s.%s: zero value or nil filter", class, op)
	}
	if s != o {
		return paramErr("%s.%s: filters differ in vectorSize, nbHash or hash type", class, op)
	}
	return nil
}

// VectorSize, NbHash and HashType are the filter's parameters.
func (s shape) VectorSize() int { return int(s.vectorSize) }

// NbHash is the number of hash positions per key.
func (s shape) NbHash() int { return int(s.nbHash) }

// HashType is the hash the filter uses.
func (s shape) HashType() HashType { return s.hash }
