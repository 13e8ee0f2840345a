package hadoop

// bitvec is a BloomFilter's java.util.BitSet: bit i is bit i%64 of word
// i/64. Bits at and past vectorSize stay zero.
type bitvec []uint64

func newBitvec(vectorSize int32) bitvec { return make(bitvec, (int(vectorSize)+63)/64) }

func (b bitvec) get(i int) bool { return b[i>>6]&(1<<(uint(i)&63)) != 0 }
func (b bitvec) set(i int)      { b[i>>6] |= 1 << (uint(i) & 63) }
func (b bitvec) clear(i int)    { b[i>>6] &^= 1 << (uint(i) & 63) }

func (b bitvec) and(o bitvec) {
	for i := range b {
		b[i] &= o[i]
	}
}

func (b bitvec) or(o bitvec) {
	for i := range b {
		b[i] |= o[i]
	}
}

func (b bitvec) xor(o bitvec) {
	for i := range b {
		b[i] ^= o[i]
	}
}

// not flips bits 0..vectorSize-1 (BitSet.flip(0, vectorSize)).
func (b bitvec) not(vectorSize int32) {
	for i := range b {
		b[i] = ^b[i]
	}
	b.trim(vectorSize)
}

// trim zeroes the bits at and past vectorSize in the last word.
func (b bitvec) trim(vectorSize int32) {
	if r := uint(vectorSize) & 63; r != 0 && len(b) > 0 {
		b[len(b)-1] &= 1<<r - 1
	}
}

// test reports whether every position of key is set: BloomFilter's
// membershipTest for a non-empty key.
func (b bitvec) test(s shape, key []byte) bool {
	seed := int32(0)
	for i := int32(0); i < s.nbHash; i++ {
		seed = s.hash.hash32(key, seed)
		if !b.get(s.position(seed)) {
			return false
		}
	}
	return true
}

// add sets every position of a non-empty key.
func (b bitvec) add(s shape, key []byte) {
	seed := int32(0)
	for i := int32(0); i < s.nbHash; i++ {
		seed = s.hash.hash32(key, seed)
		b.set(s.position(seed))
	}
}

// write writes the Writable bytes: ceil(vectorSize/8) bytes, least
// significant bit first.
func (b bitvec) write(w *writer, s shape) { w.words(b, s.bitBytes(), false) }

// readBitvec reads the bit bytes for s. Hadoop ignores set bits past
// vectorSize in the last byte; they are dropped here too, so they read as
// zero and write back as zero.
func readBitvec(r *reader, s shape) (bitvec, error) {
	b := bitvec(r.words(s.bitBytes(), false))
	if r.err != nil {
		return nil, r.err
	}
	b.trim(s.vectorSize)
	return b, nil
}
