package hadoop

import "math"

// RemoveScheme selects the bit SelectiveClearing clears, with the codes of
// org.apache.hadoop.util.bloom.RemoveScheme.
type RemoveScheme int8

const (
	// RemoveRandom is Hadoop's RANDOM. Hadoop clears bit number
	// rand.nextInt(nbHash): an index in 0..nbHash-1 of the whole vector,
	// not one of the key's positions. This follows Hadoop, so RANDOM
	// clears one of the first nbHash bits whatever the key, usually
	// leaves the key a member, and may clear a bit that was already 0.
	RemoveRandom RemoveScheme = 0
	// RemoveMinimumFN is Hadoop's MINIMUM_FN: of the key's positions, the
	// first whose added keys weigh least.
	RemoveMinimumFN RemoveScheme = 1
	// RemoveMaximumFP is Hadoop's MAXIMUM_FP: of the key's positions, the
	// first whose false positives weigh most. Where no position of the
	// key holds a false positive of positive weight, Hadoop throws
	// ArrayIndexOutOfBoundsException; here it is an error, nothing changed.
	RemoveMaximumFP RemoveScheme = 2
	// RemoveRatio is Hadoop's RATIO: it first sets ratio[i] = key weight /
	// false-positive weight at every position where both are positive
	// (other ratios keep their value), then picks, of the key's
	// positions, the first with the smallest ratio.
	RemoveRatio RemoveScheme = 3
)

// SelectiveClearing is Hadoop's selectiveClearing: it clears one bit
// chosen by scheme and returns its index. Clearing bit i drops every key
// and false positive recorded at i from the lists of all their positions
// (by Hadoop's Key equality: same bytes, weights less than 1 apart),
// empties both lists at i and sets ratio[i] to 0.
//
// It is an error, and nothing changes, if key is not a member (Hadoop's
// IllegalArgumentException), if scheme is unknown, or if the scheme finds
// no bit to clear (RemoveMaximumFP with no false positive at the key's
// positions; RemoveRandom drawing an index past vectorSize, which needs
// nbHash > vectorSize; weights that are all infinite or NaN) - except
// that, as in Hadoop, the failed call has still drawn its random number or
// recomputed the ratios.
func (r *RetouchedBloomFilter) SelectiveClearing(key []byte, scheme RemoveScheme) (cleared int, err error) {
	if r.pos == nil {
		return -1, errZeroRetouched
	}
	if len(key) == 0 {
		return -1, errEmptyKey
	}
	if scheme < RemoveRandom || scheme > RemoveRatio {
		return -1, paramErr("SelectiveClearing: unknown scheme %d", scheme)
	}
	if !r.Test(key) {
		return -1, paramErr("SelectiveClearing: key is not a member")
	}
	var h []int
	r.eachPosition(key, func(p int) { h = append(h, p) })
	index := -1
	switch scheme {
	case RemoveRandom:
		index = int(r.random().nextInt(r.bloom.nbHash))
	case RemoveMinimumFN:
		index = r.pick(h, math.MaxFloat64, func(p int) float64 { return weight(r.pos[p].keys) }, less)
	case RemoveMaximumFP:
		index = r.pick(h, math.SmallestNonzeroFloat64, func(p int) float64 { return weight(r.pos[p].fp) }, more)
	case RemoveRatio:
		r.computeRatio()
		index = r.pick(h, math.MaxFloat64, func(p int) float64 { return r.pos[p].ratio }, less)
	}
	if index < 0 || index >= len(r.pos) {
		return -1, paramErr("SelectiveClearing: scheme %d found no bit to clear (Hadoop throws ArrayIndexOutOfBoundsException)", scheme)
	}
	r.clearBit(index)
	return index, nil
}

func less(a, b float64) bool { return a < b }
func more(a, b float64) bool { return a > b }

// pick returns the first position of h whose value beats start and every
// earlier one (strictly, as Hadoop compares), or -1.
func (r *RetouchedBloomFilter) pick(h []int, start float64, value func(int) float64, better func(a, b float64) bool) int {
	best, index := start, -1
	for _, p := range h {
		if v := value(p); better(v, best) {
			best, index = v, p
		}
	}
	return index
}

// weight sums the weights in list order, as Hadoop's getWeight does.
func weight(l []weightedKey) float64 {
	w := 0.0
	for _, k := range l {
		w += k.w
	}
	return w
}

// computeRatio is Hadoop's computeRatio over every position.
func (r *RetouchedBloomFilter) computeRatio() {
	for i := range r.pos {
		p := &r.pos[i]
		if len(p.keys) == 0 || len(p.fp) == 0 {
			continue // a sum over an empty list is 0
		}
		if kw, fw := weight(p.keys), weight(p.fp); kw > 0 && fw > 0 {
			p.ratio = kw / fw
		}
	}
}

// clearBit is Hadoop's clearBit: for as many rounds as the list at index
// had entries, while it is not empty, its first key is removed once from
// the list of each of that key's positions; then both lists at index are
// emptied, the ratio zeroed and the bit cleared.
func (r *RetouchedBloomFilter) clearBit(index int) {
	for _, list := range []func(*retouchedPos) *[]weightedKey{
		func(p *retouchedPos) *[]weightedKey { return &p.keys },
		func(p *retouchedPos) *[]weightedKey { return &p.fp },
	} {
		at := list(&r.pos[index])
		for n := len(*at); n > 0 && len(*at) > 0; n-- {
			k := (*at)[0]
			r.eachPosition(k.b, func(p int) { removeFirst(list(&r.pos[p]), k) })
		}
		*at = nil
	}
	r.pos[index].ratio = 0
	r.bloom.bits.clear(index)
}

// removeFirst is List.remove(Object): it drops the first element equal to k.
func removeFirst(l *[]weightedKey, k weightedKey) {
	for j, e := range *l {
		if k.equal(e) {
			*l = append((*l)[:j], (*l)[j+1:]...)
			return
		}
	}
}
