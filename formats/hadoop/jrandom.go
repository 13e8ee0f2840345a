package hadoop

// javaRandom is java.util.Random's 48-bit linear congruential generator,
// enough of it to replay the bit indexes Hadoop's RANDOM clearing draws.
type javaRandom struct{ seed int64 }

const (
	jrMultiplier = 0x5DEECE66D
	jrAddend     = 0xB
	jrMask       = 1<<48 - 1
)

// newJavaRandom is new java.util.Random(seed).
func newJavaRandom(seed int64) *javaRandom {
	return &javaRandom{seed: (seed ^ jrMultiplier) & jrMask}
}

func (r *javaRandom) next(bits uint) int32 {
	r.seed = (r.seed*jrMultiplier + jrAddend) & jrMask
	return int32(r.seed >> (48 - bits))
}

// nextInt is Random.nextInt(bound) for bound > 0, rejection loop included.
func (r *javaRandom) nextInt(bound int32) int32 {
	x := r.next(31)
	m := bound - 1
	if bound&m == 0 {
		return int32(int64(bound) * int64(x) >> 31)
	}
	for u := x; ; u = r.next(31) {
		x = u % bound
		if u-x+m >= 0 { // Java's int overflow test, wrapping as Java does
			return x
		}
	}
}
