package hadoop

// The batch forms answer exactly what Test answers for each key.

func checkOut(keys [][]byte, out []bool) {
	if len(out) < len(keys) {
		panic("hadoop: TestKeys: out is shorter than keys")
	}
}

// TestKeys sets out[i] to Test(keys[i]) and returns how many are true.
// out must be at least as long as keys.
func (f *BloomFilter) TestKeys(keys [][]byte, out []bool) int {
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

// TestKeys sets out[i] to Test(keys[i]) and returns how many are true.
// out must be at least as long as keys.
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

// TestKeys sets out[i] to Test(keys[i]) and returns how many are true.
// out must be at least as long as keys.
func (f *DynamicBloomFilter) TestKeys(keys [][]byte, out []bool) int {
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
