package spatial

import "sync/atomic"

// areaCounts are one area's libSBF counters. An insert adds its counts to
// packed with one atomic add (members in bits 0-20, collisions in 21-41,
// self-collisions in 42-63); when a field reaches packLimit, the inserter
// that sees it moves packed's fields into the wide counters (a CAS to 0,
// then three adds). A single-key insert adds at most engine.MaxK to a
// field, so a field overflows only if 2^20/64 = 16384 inserts into one
// area land between the add that crosses packLimit and every flush
// attempt after it. Batches add to the wide counters directly. The sum of
// both is exact once inserts stop; a reader concurrent with a flush can
// see the moved counts missing for an instant.
type areaCounts struct {
	packed                 atomic.Uint64
	members, self, collide atomic.Uint64
}

const (
	packBits  = 21
	packMask  = 1<<packBits - 1
	packLimit = 1 << 20 // flush when a field reaches this
	// packTest has packLimit's bit in each field (the self field's 22
	// bits hold 2^21 too): a field is at packLimit or above exactly when
	// its value ANDed with the bits from packLimit up is non-zero.
	packTest = (packMask&^(packLimit-1))<<0 | (packMask&^(packLimit-1))<<packBits | (1<<22-1)&^(packLimit-1)<<(2*packBits)
	// packedMax bounds a count added through packed: larger batches go
	// to the wide counters.
	packedMax = 64
)

// counters hold every area's counts; index 0 holds the collisions of
// keys whose area is unknown (decoded or merged totals).
type counters []areaCounts

func newCounters(areas int) counters { return make(counters, areas+1) }

// add counts n insertions into area with coll collisions, self of them
// self-collisions.
func (c counters) add(area uint32, n, coll, self uint64) {
	a := &c[area]
	if n > packedMax || coll > packedMax {
		a.members.Add(n)
		if coll != 0 {
			a.collide.Add(coll)
			a.self.Add(self)
		}
		return
	}
	if a.packed.Add(n|coll<<packBits|self<<(2*packBits))&packTest != 0 {
		a.flush()
	}
}

// flush moves packed's counts to the wide counters while a field is at
// packLimit or above.
func (a *areaCounts) flush() {
	for {
		v := a.packed.Load()
		if v&packTest == 0 {
			return
		}
		if a.packed.CompareAndSwap(v, 0) {
			a.members.Add(v & packMask)
			a.collide.Add(v >> packBits & packMask)
			a.self.Add(v >> (2 * packBits))
			return
		}
	}
}

// area returns area a's members, self-collisions and collisions.
func (c counters) area(a int) (members, self, coll uint64) {
	p := &c[a]
	v := p.packed.Load()
	return p.members.Load() + v&packMask, p.self.Load() + v>>(2*packBits), p.collide.Load() + v>>packBits&packMask
}

// collisions returns the collisions of every area.
func (c counters) collisions() uint64 {
	var sum uint64
	for a := range c {
		_, _, coll := c.area(a)
		sum += coll
	}
	return sum
}

// addAll adds other's counts to c (same areas).
func (c counters) addAll(other counters) {
	for a := range other {
		m, s, coll := other.area(a)
		c[a].members.Add(m)
		c[a].self.Add(s)
		c[a].collide.Add(coll)
	}
}
