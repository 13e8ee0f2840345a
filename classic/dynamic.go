package classic

import (
	"fmt"
	"math"
	"math/bits"
	"runtime"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/batch"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
)

// Dynamic is a Bloom filter for an unknown number of keys with the
// semantics of Hadoop's DynamicBloomFilter: a list of standard classic
// filters ("rows"), each sized for nr keys at false-positive rate p.
//
// Add puts a key into the active (last) row; a new row opens when a key
// arrives and the active row already holds nr keys, so 1e6 keys with
// nr = 1e5 make exactly 10 rows. A row whose memory the system refuses
// (engine.ErrMemory) does not open: the keys go to the full row, whose
// false-positive rate rises above the model, and each later Add tries
// again. Test asks every row. Every row has the
// same m, k and seed, so a key's probe positions are the same in every row:
// the batch tests hash each key once and probe its positions in all rows
// together (probe-major: the first position in every row, then the second
// in the rows still matching, ...; breadth-first over a chunk of keys),
// without re-hashing per row.
//
// False-positive rate: a non-member passes if any row passes, so with r
// full rows of per-row rate p' = (1 - (1 - 1/m)^(k nr))^k the model is
// 1 - (1 - p')^r, about r·p for small p. It grows with the number of rows:
// a Dynamic filter trades a bound on the FPR for unbounded growth (the
// scalable filter of blocked.Scalable keeps the bound by tightening p).
// ModelFPR(n) gives the model for the rows n keys make.
//
// No false negatives: every added key tests true on every path.
//
// Concurrency: plain reads (Test and its forms) are safe from many
// goroutines; a writer (Add, TestAndAdd, UnmarshalBinary) needs exclusive
// use. The zero Dynamic tests every key absent; adding to it panics with a
// message naming NewDynamic.
type Dynamic struct {
	rows   []*Filter
	words  [][]uint64 // rows[i].st.Words(), kept with rows alive
	nr     uint64     // keys per row
	m      uint64     // bits per row
	k      uint32
	seed   uint64
	hp     engine.HugePageMode
	active uint64 // keys added to the last row
	// spilled counts keys added to a full row because the system refused
	// the next row's memory; a saved filter does not keep it.
	spilled uint64
}

// NewDynamic returns a Dynamic filter whose rows hold nr keys each at
// false-positive rate p (m and k as New(nr, p)). It starts with one row.
// Options are those of New (seed, huge pages).
func NewDynamic(nr uint64, p float64, opts ...engine.Option) (*Dynamic, error) {
	m, err := engine.OptimalBits(nr, p)
	if err != nil {
		return nil, err
	}
	return NewDynamicMK(nr, m, engine.OptimalK(m, nr), opts...)
}

// NewDynamicMK returns a Dynamic filter whose rows have exactly m bits and
// k probes and hold nr keys each.
func NewDynamicMK(nr, m uint64, k uint32, opts ...engine.Option) (*Dynamic, error) {
	if nr == 0 {
		return nil, errs.ParamErrorf("classic: Dynamic with nr = 0 keys per row")
	}
	first, err := NewMK(m, k, opts...)
	if err != nil {
		return nil, err
	}
	cfg := config.Apply(opts)
	d := &Dynamic{nr: nr, m: m, k: k, seed: cfg.Seed, hp: cfg.HugePages}
	d.push(first)
	return d, nil
}

func (d *Dynamic) push(f *Filter) {
	d.rows = append(d.rows, f)
	d.words = append(d.words, f.st.Words())
}

func (d *Dynamic) mustInit() {
	if d.nr == 0 {
		zeroDynamic()
	}
}

// zeroDynamic is the panic of a write to a zero Dynamic, out of line.
//
//go:noinline
func zeroDynamic() { batch.Zero("classic.Dynamic", "classic.NewDynamic") }

// activeRow returns the row the next keys go to and how many it takes
// before the next row opens: a new row opens when the active row already
// holds nr keys (Hadoop's rule). If the system refuses the new row's
// memory (engine.ErrMemory), the keys go to the full row, room is 0 and
// the next call tries again: the filter stays usable, no key is lost,
// and its false-positive rate rises above the model until a row opens.
func (d *Dynamic) activeRow() (f *Filter, room uint64) {
	d.mustInit()
	if d.active >= d.nr {
		f, err := NewMK(d.m, d.k, engine.WithSeed(d.seed), engine.WithHugePages(d.hp))
		if err != nil {
			return d.rows[len(d.rows)-1], 0
		}
		d.push(f)
		d.active = 0
	}
	return d.rows[len(d.rows)-1], d.nr - d.active
}

// added counts c keys added to the row activeRow returned with room.
func (d *Dynamic) added(room, c uint64) {
	if room == 0 {
		d.spilled += c
	} else {
		d.active += c
	}
}

// Rows returns the number of rows.
func (d *Dynamic) Rows() int { return len(d.rows) }

// RowKeys returns nr, the keys each row holds before a new row opens.
func (d *Dynamic) RowKeys() uint64 { return d.nr }

// Added returns the number of Add calls so far (a key added twice counts
// twice, as in Hadoop).
func (d *Dynamic) Added() uint64 {
	if len(d.rows) == 0 {
		return 0
	}
	return uint64(len(d.rows)-1)*d.nr + d.active + d.spilled
}

// M returns the total number of bits, Rows() times the bits per row.
func (d *Dynamic) M() uint64 { return uint64(len(d.rows)) * d.m }

// RowBits returns the bits per row.
func (d *Dynamic) RowBits() uint64 { return d.m }

// K returns the number of probes per key.
func (d *Dynamic) K() uint32 { return d.k }

// Seed returns the hash seed.
func (d *Dynamic) Seed() uint64 { return d.seed }

// SizeBytes returns the bytes of all rows' bit arrays.
func (d *Dynamic) SizeBytes() uint64 { return uint64(len(d.rows)) * 8 * wordsFor(d.m) }

// EstimatedCount sums the rows' estimates of the distinct keys they hold.
func (d *Dynamic) EstimatedCount() float64 {
	var n float64
	for _, f := range d.rows {
		n += f.EstimatedCount()
	}
	return n
}

// ModelFPR is the model false-positive rate after n keys: n keys fill
// ceil(n/nr) rows (at least one), all full but the last, and a non-member
// passes if any row passes: 1 - Π(1 - FPR(m, n_row, k)), which is
// 1 - (1 - p')^rows when every row is full.
func (d *Dynamic) ModelFPR(n uint64) float64 {
	if d.nr == 0 {
		return 0
	}
	full, rest := n/d.nr, n%d.nr
	miss := math.Pow(1-engine.FPR(d.m, d.nr, d.k), float64(full))
	if rest > 0 || full == 0 {
		miss *= 1 - engine.FPR(d.m, rest, d.k)
	}
	return 1 - miss
}

// String describes d in one line.
func (d *Dynamic) String() string {
	return fmt.Sprintf("classic.Dynamic{rows: %d, nr: %d, m/row: %d, k: %d, count: %d, seed: %d}",
		len(d.rows), d.nr, d.m, d.k, d.Added(), d.seed)
}

// Close returns the rows' huge-page memory at once. d must not be used
// afterwards.
func (d *Dynamic) Close() error {
	var first error
	for _, f := range d.rows {
		if err := f.Close(); err != nil && first == nil {
			first = err
		}
	}
	*d = Dynamic{} // a closed filter is a zero one: writes panic naming NewDynamic
	return first
}

// Clone returns an independent copy of d.
func (d *Dynamic) Clone() *Dynamic {
	c := *d
	c.rows, c.words = nil, nil
	for _, f := range d.rows {
		c.push(f.Clone())
	}
	return &c
}

// Add inserts key into the active row.
func (d *Dynamic) Add(key []byte) { d.AddHash(engine.HashSeed(key, d.seed)) }

// AddString inserts the bytes of s without copying them.
func (d *Dynamic) AddString(s string) { d.AddHash(engine.HashStringSeed(s, d.seed)) }

// AddUint64 inserts the 8 little-endian bytes of k.
func (d *Dynamic) AddUint64(k uint64) { d.AddHash(engine.HashUint64Seed(k, d.seed)) }

// AddHash inserts a key by its hash (engine.HashSeed with d's seed).
func (d *Dynamic) AddHash(h uint64) {
	f, room := d.activeRow()
	f.AddHash(h)
	d.added(room, 1)
}

// AddHashes inserts every hash of hs, filling rows in order.
func (d *Dynamic) AddHashes(hs []uint64) {
	for len(hs) > 0 {
		f, room := d.activeRow()
		c := hs
		if room > 0 {
			c = hs[:min(uint64(len(hs)), room)]
		}
		f.AddHashes(c)
		d.added(room, uint64(len(c)))
		hs = hs[len(c):]
	}
}

// AddKeys inserts every key.
func (d *Dynamic) AddKeys(keys [][]byte) {
	batch.AddKeys(d.AddHashes, keys, d.seed)
}

// AddUint64s inserts the 8 little-endian bytes of every key, hashed in
// batch.
func (d *Dynamic) AddUint64s(ks []uint64) {
	batch.AddUint64s(d.AddHashes, ks, d.seed)
}

// Test reports whether key may have been added; false means certainly not.
func (d *Dynamic) Test(key []byte) bool { return d.TestHash(engine.HashSeed(key, d.seed)) }

// TestString is Test of the bytes of s, without copying them.
func (d *Dynamic) TestString(s string) bool { return d.TestHash(engine.HashStringSeed(s, d.seed)) }

// TestUint64 is Test of the 8 little-endian bytes of k.
func (d *Dynamic) TestUint64(k uint64) bool { return d.TestHash(engine.HashUint64Seed(k, d.seed)) }

// TestHash reports whether a key with hash h may have been added to any
// row.
func (d *Dynamic) TestHash(h uint64) bool {
	hit := dynamicTest(d.words, d.m, d.k, h)
	runtime.KeepAlive(d)
	return hit
}

// TestAndAdd reports whether key tested present and adds it (to the
// active row) only when it did not.
func (d *Dynamic) TestAndAdd(key []byte) bool {
	return d.TestAndAddHash(engine.HashSeed(key, d.seed))
}

// TestAndAddHash is TestAndAdd for a hashed key.
func (d *Dynamic) TestAndAddHash(h uint64) bool {
	if d.TestHash(h) {
		return true
	}
	d.AddHash(h)
	return false
}

// TestHashes sets out[i] to TestHash(hs[i]) and returns how many are true.
// out must be at least as long as hs.
func (d *Dynamic) TestHashes(hs []uint64, out []bool) int {
	out = batch.Out("classic", out, len(hs))
	hits := dynamicTestRange(d.words, d.m, d.k, hs, out)
	runtime.KeepAlive(d)
	return hits
}

// TestKeys sets out[i] to Test(keys[i]) and returns how many are true.
func (d *Dynamic) TestKeys(keys [][]byte, out []bool) int {
	return batch.TestKeys(d.TestHashes, keys, d.seed, batch.Out("classic", out, len(keys)))
}

// TestUint64s sets out[i] to Test of the 8 little-endian bytes of ks[i]
// and returns how many are true. Each key is hashed once (in batch) for
// all rows.
func (d *Dynamic) TestUint64s(ks []uint64, out []bool) int {
	return batch.TestUint64s(d.TestHashes, ks, d.seed, batch.Out("classic", out, len(ks)))
}

// dynamicTest probes h's positions in every row, probe-major: position i
// is loaded from each row still matching after positions 0..i-1, so the
// loads of one position are independent and overlap. Rows go in groups
// of 64, one alive bit each.
func dynamicTest(rows [][]uint64, m uint64, k uint32, h uint64) bool {
	for g := 0; g < len(rows); g += 64 {
		grp := rows[g:min(g+64, len(rows))]
		alive := ^uint64(0) >> (64 - len(grp))
		a, b := h, second(h)
		for range k {
			i := reduce(a, m)
			wi, sh := i/64, i%64
			for x := alive; x != 0; x &= x - 1 {
				r := bits.TrailingZeros64(x)
				alive &^= (^grp[r][wi] >> sh & 1) << r // branch-free
			}
			if alive == 0 {
				break
			}
			a, b = a+b, b+phi
		}
		if alive != 0 {
			return true
		}
	}
	return false
}

// dynamicTestRange is TestHash over hs, breadth-first in chunks of
// batch.Chunk keys: probe i of every key still matching some row, then
// probe i+1, so the loads of many keys are in flight together instead of
// one key's rows at a time. Keys found in no row of one group of 64 rows go on to
// the next group.
func dynamicTestRange(rows [][]uint64, m uint64, k uint32, hs []uint64, out []bool) int {
	out = out[:len(hs)]
	hits := 0
	var pending [batch.Chunk]uint8
	for base := 0; base < len(hs); base += batch.Chunk {
		c := hs[base:min(base+batch.Chunk, len(hs))]
		o := out[base : base+len(c)]
		for j := range c {
			o[j] = false
			pending[j] = uint8(j)
		}
		np := len(c)
		for g := 0; g < len(rows) && np > 0; g += 64 {
			found, missed := probeGroup(rows[g:min(g+64, len(rows))], m, k, c, pending[:np], o)
			hits += found
			np = missed
		}
	}
	return hits
}

// probeGroup tests the keys pending (indices into hs) against up to 64
// rows breadth-first, sets out for the keys some row holds, and rewrites
// pending with the keys no row holds, returning both counts.
func probeGroup(grp [][]uint64, m uint64, k uint32, hs []uint64, pending []uint8, out []bool) (found, missed int) {
	var as, bs, alive [batch.Chunk]uint64
	var live [batch.Chunk]uint8
	full := ^uint64(0) >> (64 - len(grp))
	nl := copy(live[:], pending)
	for _, j := range pending {
		h := hs[j]
		as[j], bs[j], alive[j] = h, second(h), full
	}
	for range k {
		w := 0
		for _, j := range live[:nl] {
			a := as[j]
			i := reduce(a, m)
			wi, sh := i/64, i%64
			al := alive[j]
			for x := al; x != 0; x &= x - 1 {
				r := bits.TrailingZeros64(x)
				al &^= (^grp[r][wi] >> sh & 1) << r // branch-free
			}
			alive[j] = al
			as[j], bs[j] = a+bs[j], bs[j]+phi
			if al != 0 {
				live[w] = j // w <= the index being read
				w++
			} else {
				pending[missed] = j
				missed++
			}
		}
		nl = w
		if nl == 0 {
			break
		}
	}
	for _, j := range live[:nl] {
		out[j] = true
	}
	return nl, missed
}
