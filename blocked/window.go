package blocked

import (
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/batch"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/hashing"
	"github.com/filterengine/filterengine/internal/store"
)

// maxGenerations bounds a Window's generations.
const maxGenerations = 64

// Window is a sliding window of generations, for aging and for the dedup
// of the last events: G blocked filters of one geometry, each sized as New
// sizes one for n keys at p. Keys go to the current generation; Rotate
// clears the oldest generation and makes it current, and Add rotates by
// itself when the current generation already holds n keys.
//
// Guarantee: a key added in the current generation or in one of the G-1
// before it tests present; a key added before that may test absent (it
// does unless a false positive keeps it). So with automatic rotation a key
// is remembered for at least the (G-1)*n keys added after it and at most
// G*n, and with Rotate on a timer of period T for at least (G-1)*T.
//
// FPR: an absent key is a false positive if any live generation says yes,
// 1 - (1 - f)^G with f the rate of one generation (FPR at its load), so
// about G*p when every generation is full; size p for the window
// (ModelFPR(n) gives the rate when every generation holds n keys).
//
// Layout: one 64-byte aligned array of the generations interleaved line
// by line, line j of generation g at words (j*G + g)*8 (asm's strided
// layout); each generation, read line by line, is laid out as the
// package doc says. A key has the same line index j in every generation,
// so its G lines are adjacent: one run of G*64 bytes. Tests
// compute a key's line index and mask once and test its G lines without
// a branch on the answers (asm.BlockedTestStrideHash and
// BlockedTestStrideHashes); Rotate clears every G-th line.
//
// Concurrency: the *Concurrent forms (the adds, the tests and the
// concurrent dedup TestAndAddConcurrent with its Hash, Uint64 and String
// forms) may run on many goroutines beside each other and beside Rotate;
// Rotate may be called from any goroutine (rotations are serialised).
// A concurrent dedup of a key that tests present in a live generation
// leaves it there, as TestAndAdd does. A key whose AddConcurrent returned
// before a rotation started is in the current generation or a younger one
// than the one that rotation clears, so it tests present through the next
// G-1 rotations that start after the call returned, exactly as a
// sequential Add. (A writer that finds a rotation began since it read the
// epoch, finished or not, waits for it and writes the key again into the
// current generation.) Every other method
// needs exclusive use for writes; plain reads may run on many goroutines.
//
// A zero Window holds no key and tests every key absent; adding to it
// panics with a message naming NewWindow.
type Window struct {
	storage *store.Storage
	gens    int    // G; 0 in a zero Window
	lines   uint64 // lines per generation
	k       uint32
	n       uint64
	p       float64
	seed    uint64
	key     uint64 // hashing.Uint64Key(seed)

	// epoch counts rotations; generation epoch%G is current. count is
	// the keys added to it. started counts the rotations begun: epoch+1
	// while one clears, epoch otherwise. All three are read and written
	// atomically by the concurrent paths and Rotate, plainly by the
	// exclusive ones.
	epoch   uint64
	count   uint64
	started uint64
	mu      sync.Mutex // serialises rotations
}

// NewWindow returns a window of generations filters, each sized for n
// keys at false-positive rate p. Options: engine.WithSeed and
// engine.WithHugePages.
func NewWindow(n uint64, p float64, generations int, opts ...engine.Option) (*Window, error) {
	c, _, err := growOptions("blocked.Window", opts, func(any) (bool, error) { return false, nil })
	if err != nil {
		return nil, err
	}
	if generations < 1 || generations > maxGenerations {
		return nil, errs.ParamErrorf("%d generations outside [1, %d]", generations, maxGenerations)
	}
	m, k, err := sizeFor(n, p)
	if err != nil {
		return nil, err
	}
	if m*uint64(generations) > engine.MaxBits {
		return nil, errs.ParamErrorf("%d generations of %d bits exceed the maximum %d", generations, m, uint64(engine.MaxBits))
	}
	s, err := store.NewStorage(m/64*uint64(generations), c.HugePages)
	if err != nil {
		return nil, err
	}
	return newWindow(s, n, p, generations, m/LineBits, k, c.Seed), nil
}

func newWindow(s *store.Storage, n uint64, p float64, generations int, lines uint64, k uint32, seed uint64) *Window {
	return &Window{storage: s, gens: generations, lines: lines, k: k, n: n, p: p, seed: seed, key: hashing.Uint64Key(seed)}
}

// line returns the line of hash h in generation gen.
func (w *Window) line(gen int, h uint64) []uint64 {
	return asm.BlockedStrideLine(w.storage.Words(), w.gens, gen, h)
}

// lineFilter is a one-line Filter over line, for the single-line forms of
// Filter's methods (a key of a one-line filter is in its line).
func (w *Window) lineFilter(line []uint64) Filter {
	return Filter{storage: w.storage, p: asm.NewBlockedProbe(line, 1, w.k, w.seed)}
}

// Generations returns the number of generations G.
func (w *Window) Generations() int { return w.gens }

// N returns the keys a generation holds before Add rotates.
func (w *Window) N() uint64 { return w.n }

// Seed returns the hash seed.
func (w *Window) Seed() uint64 { return w.seed }

// Epoch returns the number of rotations so far.
func (w *Window) Epoch() uint64 { return atomic.LoadUint64(&w.epoch) }

// Added returns the keys added to the current generation.
func (w *Window) Added() uint64 { return atomic.LoadUint64(&w.count) }

// M returns the bits of one generation.
func (w *Window) M() uint64 { return w.lines * LineBits }

// K returns the probes per key.
func (w *Window) K() uint32 { return w.k }

// SizeBytes returns the bytes of all generations.
func (w *Window) SizeBytes() uint64 { return w.M() / 8 * uint64(w.gens) }

// EstimatedCount sums the generations' estimates of their distinct keys.
func (w *Window) EstimatedCount() float64 {
	if w.gens == 0 {
		return 0
	}
	words := w.storage.Words()
	var n float64
	for gen := range w.gens {
		var set uint64
		for j := range w.lines {
			for _, x := range words[(j*uint64(w.gens)+uint64(gen))*8:][:8] {
				set += uint64(bits.OnesCount64(x))
			}
		}
		n += engine.EstimateCount(w.M(), w.k, set)
	}
	runtime.KeepAlive(w.storage)
	return n
}

// ModelFPR returns the model false-positive rate of the window when every
// live generation holds n keys: 1 - (1 - FPR(m, n, k))^G.
func (w *Window) ModelFPR(n uint64) float64 {
	if w.gens == 0 {
		return 0
	}
	pass := 1.0
	f := FPR(w.M(), n, w.K())
	for range w.gens {
		pass *= 1 - f
	}
	return 1 - pass
}

// String describes the window in one line.
func (w *Window) String() string {
	return fmt.Sprintf("blocked.Window{generations: %d, n: %d, p: %g, k: %d, epoch: %d, current: %d keys, bytes: %d, seed: %d}",
		w.gens, w.n, w.p, w.K(), w.Epoch(), w.Added(), w.SizeBytes(), w.seed)
}

// Clone returns an independent copy (not to be taken beside concurrent
// writers).
func (w *Window) Clone() *Window {
	if w.gens == 0 {
		return &Window{}
	}
	whole := &Filter{storage: w.storage, p: asm.NewBlockedProbe(w.storage.Words(), w.lines*uint64(w.gens), w.k, w.seed)}
	c := newWindow(whole.Clone().storage, w.n, w.p, w.gens, w.lines, w.k, w.seed)
	c.epoch, c.count, c.started = w.epoch, w.count, w.epoch
	return c
}

// Close releases a huge-page array at once; the window must not be used
// afterwards.
func (w *Window) Close() error {
	if w.storage == nil {
		return nil
	}
	w.gens = 0
	return w.storage.Close()
}

// current returns the current generation for an exclusive writer,
// rotating first if it is full, and the keys it has room for.
func (w *Window) current() (int, uint64) {
	if w.gens == 0 {
		batch.Zero("blocked.Window", "blocked.NewWindow")
	}
	if w.count >= w.n {
		w.Rotate()
	}
	return int(w.epoch % uint64(w.gens)), w.n - w.count
}

// Rotate starts a new generation: it clears the oldest one and makes it
// current. It may run beside AddConcurrent and AddHashConcurrent (see the
// type's doc); rotations are serialised.
func (w *Window) Rotate() {
	if w.gens == 0 {
		batch.Zero("blocked.Window", "blocked.NewWindow")
	}
	w.mu.Lock()
	w.rotateLocked(atomic.LoadUint64(&w.epoch))
	w.mu.Unlock()
}

// rotateLocked moves from epoch e to e+1, holding mu: it publishes that
// a rotation started, clears the generation that becomes current with
// atomic stores (a writer that read a stale epoch may still OR into it,
// and will write its key again) and then publishes the new epoch.
func (w *Window) rotateLocked(e uint64) {
	atomic.StoreUint64(&w.started, e+1)
	if windowRotateHook != nil {
		windowRotateHook()
	}
	G := uint64(w.gens)
	next := (e + 1) % G
	words := w.storage.Words()
	for j := range w.lines {
		line := words[(j*G+next)*8:][:8]
		for i := range line {
			atomic.StoreUint64(&line[i], 0)
		}
	}
	runtime.KeepAlive(w.storage)
	atomic.StoreUint64(&w.count, 0)
	atomic.StoreUint64(&w.epoch, e+1)
}

// AddHash adds a key given its hash engine.HashSeed(key, w.Seed()).
func (w *Window) AddHash(h uint64) {
	gen, _ := w.current()
	asm.BlockedAddHash(w.line(gen, h), h, w.k)
	runtime.KeepAlive(w.storage)
	w.count++
}

// AddHashConcurrent adds a key given its hash, with atomic ORs; it may
// run on many goroutines beside Rotate and the other *Concurrent calls.
// It rotates when the current generation holds n keys (the generation
// may end a few keys over n while writers race).
func (w *Window) AddHashConcurrent(h uint64) { w.addHashConcurrent(h) }

// addHashConcurrent is AddHashConcurrent, reporting whether one of its
// writes set a bit of the key that was unset: of calls racing to write
// one new key into a generation, the first to set each of its bits sees
// it unset, so at least one of them reports true.
func (w *Window) addHashConcurrent(h uint64) (fresh bool) {
	if w.gens == 0 {
		batch.Zero("blocked.Window", "blocked.NewWindow")
	}
	G := uint64(w.gens)
	for {
		e := atomic.LoadUint64(&w.epoch)
		if atomic.AddUint64(&w.count, 1) > w.n {
			w.mu.Lock()
			if atomic.LoadUint64(&w.epoch) == e {
				w.rotateLocked(e)
			}
			w.mu.Unlock()
			continue
		}
		if windowStallHook != nil {
			windowStallHook()
		}
		f := w.lineFilter(w.line(int(e%G), h))
		if !f.TestAndAddHashConcurrent(h) {
			fresh = true
		}
		if atomic.LoadUint64(&w.started) == e {
			// No rotation began since e was current: the first to begin
			// starts after this call returns and leaves the key one
			// generation old.
			return fresh
		}
		// A rotation began while writing, or had begun before: the
		// generation written may be cleared, or be a generation old
		// already when the call returns. Wait for the rotation to end,
		// then write into the current generation.
		w.mu.Lock()
		w.mu.Unlock()
	}
}

// windowStallHook, when a test sets it, runs in AddHashConcurrent between
// reading the epoch and writing the key: it stands for a writer the
// scheduler stalls there while other goroutines rotate. windowRotateHook
// runs in a rotation after it published its start, before it clears: a
// rotation caught in the middle.
var windowStallHook, windowRotateHook func()

// AddConcurrent is Add for concurrent writers (see AddHashConcurrent).
func (w *Window) AddConcurrent(key []byte) { w.AddHashConcurrent(engine.HashSeed(key, w.seed)) }

// TestHashConcurrent is TestHash with atomic loads, safe beside
// AddHashConcurrent and Rotate.
func (w *Window) TestHashConcurrent(h uint64) bool {
	for gen := range w.gens {
		f := w.lineFilter(w.line(gen, h))
		if f.TestHashConcurrent(h) {
			return true
		}
	}
	return false
}

// TestConcurrent is Test for readers beside concurrent writers.
func (w *Window) TestConcurrent(key []byte) bool {
	return w.TestHashConcurrent(engine.HashSeed(key, w.seed))
}

// TestAndAddHashConcurrent is TestAndAddHash for concurrent writers, the
// concurrent dedup of the family contract: a key that tests present in a
// live generation is left as it is and answers true; otherwise it is
// added to the current generation as AddHashConcurrent adds it, and
// answers true only if every bit it set was set already. It may run
// beside every other *Concurrent call and Rotate; of calls racing for one
// new key, at least one answers false, so a stream deduplicated by many
// goroutines passes each new key on at least once.
func (w *Window) TestAndAddHashConcurrent(h uint64) bool {
	if w.TestHashConcurrent(h) {
		return true
	}
	return !w.addHashConcurrent(h)
}

// TestAndAddConcurrent is TestAndAdd for concurrent writers (see
// TestAndAddHashConcurrent).
func (w *Window) TestAndAddConcurrent(key []byte) bool {
	return w.TestAndAddHashConcurrent(engine.HashSeed(key, w.seed))
}

// TestAndAddUint64Concurrent is TestAndAddConcurrent of the 8
// little-endian bytes of k.
func (w *Window) TestAndAddUint64Concurrent(k uint64) bool {
	return w.TestAndAddHashConcurrent(hashing.HashUint64Keyed(k, w.key))
}

// TestAndAddStringConcurrent is TestAndAddConcurrent of the bytes of s,
// without copying them.
func (w *Window) TestAndAddStringConcurrent(s string) bool {
	return w.TestAndAddHashConcurrent(engine.HashStringSeed(s, w.seed))
}

// TestHash reports whether the key with hash h may have been added in a
// live generation. It tests the key's line in every generation, without
// a branch on the answers (asm.BlockedTestStrideHash), so the lines load
// together.
func (w *Window) TestHash(h uint64) bool {
	if w.gens == 0 {
		return false
	}
	hit := asm.BlockedTestStrideLinesHash(w.storage.Words(), int(w.lines), w.gens, h, w.k)
	runtime.KeepAlive(w.storage)
	return hit
}

// TestAndAddHash adds the key with hash h unless it tests present, and
// reports whether it tested present. A key found present is not added
// again, so its age stays that of its first add.
func (w *Window) TestAndAddHash(h uint64) bool {
	if w.TestHash(h) {
		return true
	}
	w.AddHash(h)
	return false
}

// Add adds key.
func (w *Window) Add(key []byte) { w.AddHash(engine.HashSeed(key, w.seed)) }

// Test reports whether key may have been added in a live generation.
func (w *Window) Test(key []byte) bool { return w.TestHash(engine.HashSeed(key, w.seed)) }

// TestAndAdd adds key unless it tests present, and reports whether it
// did: the dedup of the events of the live window.
func (w *Window) TestAndAdd(key []byte) bool {
	return w.TestAndAddHash(engine.HashSeed(key, w.seed))
}

// AddString adds the bytes of s without copying them.
func (w *Window) AddString(s string) { w.AddHash(engine.HashStringSeed(s, w.seed)) }

// TestString is Test of the bytes of s.
func (w *Window) TestString(s string) bool { return w.TestHash(engine.HashStringSeed(s, w.seed)) }

// AddUint64 adds the 8 little-endian bytes of k.
func (w *Window) AddUint64(k uint64) { w.AddHash(hashing.HashUint64Keyed(k, w.key)) }

// TestUint64 is Test of the 8 little-endian bytes of k.
func (w *Window) TestUint64(k uint64) bool { return w.TestHash(hashing.HashUint64Keyed(k, w.key)) }

// TestAndAddUint64 is TestAndAdd of the 8 little-endian bytes of k.
func (w *Window) TestAndAddUint64(k uint64) bool {
	return w.TestAndAddHash(hashing.HashUint64Keyed(k, w.key))
}

// AddHashes adds every hash, rotating whenever the current generation
// fills.
func (w *Window) AddHashes(hs []uint64) {
	for len(hs) > 0 {
		gen, room := w.current()
		c := min(uint64(len(hs)), room)
		asm.BlockedAddStrideHashes(w.storage.Words(), w.gens, gen, w.k, hs[:c])
		runtime.KeepAlive(w.storage)
		w.count += c
		hs = hs[c:]
	}
}

// AddUint64s adds the 8 little-endian bytes of every key, hashed in batch.
func (w *Window) AddUint64s(ks []uint64) {
	keyBatch{w: w}.add(ks, nil, len(ks))
}

// AddKeys adds every key.
func (w *Window) AddKeys(keys [][]byte) {
	keyBatch{w: w}.add(nil, keys, len(keys))
}

// TestHashes sets out[i] = TestHash(hs[i]) and returns the number of hits,
// with the strided kernel (asm.BlockedTestStrideHashes: one line index and
// one mask per key, then its G adjacent lines).
func (w *Window) TestHashes(hs []uint64, out []bool) int {
	out = batch.Out("blocked.Window", out, len(hs))
	if w.gens == 0 {
		clear(out[:len(hs)])
		return 0
	}
	hits := asm.BlockedTestStrideHashes(w.storage.Words(), w.gens, w.k, hs, out)
	runtime.KeepAlive(w.storage)
	return hits
}

// TestUint64s sets out[i] to Test of the 8 little-endian bytes of ks[i]
// and returns the number of hits; the keys are hashed once, in batch.
func (w *Window) TestUint64s(ks []uint64, out []bool) int {
	return keyBatch{w: w}.test(ks, nil, len(ks), out)
}

// TestKeys sets out[i] = Test(keys[i]) and returns the number of hits.
func (w *Window) TestKeys(keys [][]byte, out []bool) int {
	return keyBatch{w: w}.test(nil, keys, len(keys), out)
}

// AddHashesConcurrent adds every hash with AddHashConcurrent.
func (w *Window) AddHashesConcurrent(hs []uint64) {
	for _, h := range hs {
		w.AddHashConcurrent(h)
	}
}

// AddUint64sConcurrent adds the 8 little-endian bytes of every key with
// AddHashConcurrent.
func (w *Window) AddUint64sConcurrent(ks []uint64) {
	for _, k := range ks {
		w.AddHashConcurrent(hashing.HashUint64Keyed(k, w.key))
	}
}
