package hadoop

// The header every Hadoop filter writes (org.apache.hadoop.util.bloom.
// Filter.write): int -1 (the version), int nbHash, one byte hash type, int
// vectorSize. A stream whose first int is positive is the older unversioned
// layout: that int is nbHash, the hash is Jenkins and no type byte follows.

const version = -1

func (s shape) write(w *writer) {
	w.int32(version)
	w.int32(s.nbHash)
	w.int8(int8(s.hash))
	w.int32(s.vectorSize)
}

func readShape(r *reader) (shape, error) {
	var s shape
	switch v := r.int32(); {
	case r.err != nil:
		return s, r.err
	case v > 0:
		s.nbHash, s.hash = v, Jenkins
	case v == version:
		s.nbHash = r.int32()
		s.hash = HashType(r.int8())
	default:
		return s, formatErr("unsupported version %d", v)
	}
	s.vectorSize = r.int32()
	if r.err != nil {
		return s, r.err
	}
	valid, err := newShape(int(s.vectorSize), int(s.nbHash), s.hash)
	if err != nil {
		return s, formatErr("header: vectorSize %d, nbHash %d, hash type %d: want positive sizes and type 0 or 1",
			s.vectorSize, s.nbHash, s.hash)
	}
	return valid, nil
}

// bitBytes is the length of a BloomFilter's bit vector on the wire,
// ceil(vectorSize/8).
func (s shape) bitBytes() int { return int((int64(s.vectorSize) + 7) / 8) }
