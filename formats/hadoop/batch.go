package hadoop

// The batch forms answer exactly what Test answers for each key. A key's
// hash chain is serial, but different keys' chains are independent: the
// batch walks a group of keys one chain step at a time, keeping the keys
// still possibly present in a list it compacts without branching. The
// processor then overlaps the hashes and memory loads of the whole group,
// and mispredicts about once per step of a group instead of once per
// absent key.

const lanes = 32

func checkOut(keys [][]byte, out []bool) {
	if len(out) < len(keys) {
		panic("hadoop: TestKeys: out is shorter than keys")
	}
}

// testKeys answers membership for keys over the bits of s: a key is a
// member if the bit at every one of its positions is set.
func (b bitvec) testKeys(s shape, keys [][]byte, out []bool) int {
	checkOut(keys, out)
	out = out[:len(keys)]
	clear(out)
	if len(b) == 0 {
		return 0
	}
	murmur := s.hash == Murmur
	hits := 0
	for base := 0; base < len(keys); base += lanes {
		group := keys[base:min(base+lanes, len(keys))]
		var seed [lanes]int32
		var live [lanes]uint8 // lanes whose every position so far is set
		n := 0
		for j, key := range group {
			if len(key) > 0 {
				live[n] = uint8(j)
				n++
			}
		}
		for i := int32(0); i < s.nbHash && n > 0; i++ {
			m := 0
			for _, j := range live[:n] {
				if murmur { // the same branch for every key: predicted
					seed[j] = MurmurHash(group[j], seed[j])
				} else {
					seed[j] = JenkinsHash(group[j], seed[j])
				}
				p := s.position(seed[j])
				live[m] = j
				m += int(b[p>>6] >> (p & 63) & 1)
			}
			n = m
		}
		for _, j := range live[:n] {
			out[base+int(j)] = true
		}
		hits += n
	}
	return hits
}

// TestKeys sets out[i] to Test(keys[i]) and returns how many are true. It
// panics if out is shorter than keys.
func (f *BloomFilter) TestKeys(keys [][]byte, out []bool) int {
	return f.bits.testKeys(f.shape, keys, out)
}

// TestKeys sets out[i] to Test(keys[i]) and returns how many are true. It
// panics if out is shorter than keys.
func (f *CountingBloomFilter) TestKeys(keys [][]byte, out []bool) int {
	checkOut(keys, out)
	hits := 0
	for i, key := range keys {
		out[i] = f.Test(key)
		if out[i] {
			hits++
		}
	}
	return hits
}

// TestKeys sets out[i] to Test(keys[i]) and returns how many are true. It
// panics if out is shorter than keys.
func (f *DynamicBloomFilter) TestKeys(keys [][]byte, out []bool) int {
	checkOut(keys, out)
	hits := 0
	var buf [32]int
	for i, key := range keys {
		out[i] = f.test(key, buf[:0])
		if out[i] {
			hits++
		}
	}
	return hits
}
