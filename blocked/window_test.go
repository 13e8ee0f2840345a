package blocked

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/store"
	"github.com/filterengine/filterengine/internal/testkit/fprstat"
	"github.com/filterengine/filterengine/internal/testkit/kerneltest"
)

func TestWindowErrors(t *testing.T) {
	for name, err := range map[string]error{
		"n=0":            second(NewWindow(0, 0.01, 4)),
		"p=0":            second(NewWindow(10, 0, 4)),
		"p=NaN":          second(NewWindow(10, math.NaN(), 4)),
		"generations=0":  second(NewWindow(10, 0.01, 0)),
		"generations=-1": second(NewWindow(10, 0.01, -1)),
		"generations=65": second(NewWindow(10, 0.01, 65)),
		"too large":      second(NewWindow(1<<44, 0.01, 64)),
		"unknown option": second(NewWindow(10, 0.01, 4, WithGrowth(2))),
		"zero marshal":   second(new(Window).MarshalBinary()),
	} {
		wantErr(t, name, err, engine.ErrParam)
	}
	var z Window
	if z.Test([]byte("x")) || z.TestUint64(1) || z.TestHashConcurrent(1) || z.Generations() != 0 || z.ModelFPR(1) != 0 {
		t.Error("zero Window is not empty")
	}
	out := []bool{true, true}
	if z.TestUint64s([]uint64{1, 2}, out) != 0 || out[0] || out[1] {
		t.Error("zero Window batch answers present")
	}
	wantPanic(t, "zero Add", "blocked.NewWindow", func() { z.Add([]byte("x")) })
	wantPanic(t, "zero AddConcurrent", "blocked.NewWindow", func() { z.AddConcurrent([]byte("x")) })
	wantPanic(t, "zero Rotate", "blocked.NewWindow", z.Rotate)
	w, _ := NewWindow(10, 0.01, 3)
	wantPanic(t, "short out", "out has 1 elements for 2 keys", func() { w.TestUint64s([]uint64{1, 2}, out[:1]) })
}

// liveFrom returns the index of the oldest key a window of g generations
// of n keys still holds after adding total keys one generation at a time.
func liveFrom(total, n, g int) int {
	cur := (total - 1) / n // the generation of the last key
	return max(0, (cur-g+1)*n)
}

// Every add path, every kernel level: keys of the live generations test
// present, and the expired ones test present only at the window's FPR.
func TestWindowNoFalseNegatives(t *testing.T) {
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		for how := range addMultiHow {
			t.Run(fmt.Sprint("add=", how), func(t *testing.T) {
				const n, g, total = 500, 4, 3700
				w, err := NewWindow(n, 0.01, g, engine.WithSeed(uint64(how)))
				if err != nil {
					t.Fatal(err)
				}
				ks := randomKeys(uint64(how)+200, total+3000)
				addMulti(w, how, ks[:total])
				if w.Epoch() != (total-1)/n || w.Added() != total-n*((total-1)/n) {
					t.Fatalf("epoch %d, count %d", w.Epoch(), w.Added())
				}
				live := liveFrom(total, n, g)
				checkMulti(t, w, ks, func(i int) bool { return i >= live && i < total })
			})
		}
	})
}

// Keys older than the window are forgotten: they test present at the rate
// of keys never added (the window's model FPR, within a binomial bound),
// and G rotations forget everything.
func TestWindowForgets(t *testing.T) {
	const n, g = 20_000, 3
	w, _ := NewWindow(n, 0.01, g)
	ks := randomKeys(5, 10*n)
	w.AddUint64s(ks)
	live := liveFrom(len(ks), n, g)
	out := make([]bool, live)
	fp := float64(w.TestUint64s(ks[:live], out))
	model := w.ModelFPR(n)
	lo, hi := fprstat.BinomialBounds(uint64(live), model, fprstat.Z999)
	t.Logf("expired keys present: %.4f%%, window model %.4f%%", 100*fp/float64(live), 100*model)
	if fp < lo || fp > hi {
		t.Errorf("%.0f of %d expired keys present, model %v gives [%.0f, %.0f]", fp, live, model, lo, hi)
	}
	for range g {
		w.Rotate()
	}
	out = make([]bool, len(ks))
	if hits := w.TestUint64s(ks, out); hits != 0 || w.EstimatedCount() != 0 {
		t.Errorf("%d keys present after %d rotations", hits, g)
	}
}

// Rotate on a timer: keys of the last G-1 rotations plus the current
// generation stay, whatever their count.
func TestWindowRotate(t *testing.T) {
	const g = 4
	w, _ := NewWindow(1000, 0.01, g)
	var batches [][]uint64
	for i := range 10 {
		ks := randomKeys(uint64(i)+40, 300)
		w.AddUint64s(ks)
		batches = append(batches, ks)
		for j, b := range batches {
			out := make([]bool, len(b))
			hits := w.TestUint64s(b, out)
			if j > i-g && hits != len(b) {
				t.Fatalf("after rotation %d: batch %d lost %d keys", i, j, len(b)-hits)
			}
		}
		w.Rotate()
	}
	if w.Generations() != g || w.Epoch() != 10 || len(w.String()) > 200 {
		t.Errorf("generations %d, epoch %d, %q", w.Generations(), w.Epoch(), w.String())
	}
}

func TestWindowTestAndAdd(t *testing.T) {
	w, _ := NewWindow(1000, 0.001, 2)
	ks := randomKeys(8, 3000)
	for _, k := range ks[:1000] {
		if w.TestAndAdd(keyBytes(k)) {
			t.Fatal("new key reported seen")
		}
	}
	for _, k := range ks[:1000] {
		if !w.TestAndAddUint64(k) {
			t.Fatal("seen key reported new")
		}
	}
	if w.Added() != 1000 || w.Epoch() != 0 {
		t.Errorf("duplicates were added: count %d, epoch %d", w.Added(), w.Epoch())
	}
}

// AddConcurrent on several goroutines, in batches of every tail length,
// beside Rotate on another goroutine and automatic rotation: a key whose
// add returned tests present as long as fewer than G rotations happened
// since the epoch read before its add began (G-1 once the rotator is
// stopped), on every kernel level.
func TestWindowConcurrent(t *testing.T) {
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		const g, workers, per = 3, 4, 3000
		w, _ := NewWindow(700, 0.01, g)
		ks := randomKeys(77, workers*per)
		before := make([]uint64, len(ks))
		stopRotating := rotating(w, func(stop *atomic.Bool) {
			for i := 0; i < 5000 && !stop.Load(); i++ {
				w.TestHashConcurrent(uint64(i))
			}
		})
		var wg sync.WaitGroup
		for wk := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				mine := ks[wk*per : (wk+1)*per]
				for i, j := 0, 0; i < len(mine); j++ {
					c := min(len(mine)-i, kerneltest.BatchLengths[j%len(kerneltest.BatchLengths)])
					e := w.Epoch()
					for x := i; x < i+c; x++ {
						before[wk*per+x] = e
					}
					if j%2 == 0 {
						w.AddUint64sConcurrent(mine[i : i+c])
					} else {
						for _, k := range mine[i : i+c] {
							w.AddConcurrent(keyBytes(k))
						}
					}
					for _, k := range mine[i : i+c] {
						ok := w.TestConcurrent(keyBytes(k))
						if !ok && w.Epoch()-e < g-1 {
							t.Errorf("key absent right after its add, %d rotations later", w.Epoch()-e)
							return
						}
					}
					i += c
				}
			}()
		}
		wg.Wait()
		stopRotating()
		final := w.Epoch()
		out := make([]bool, len(ks))
		w.TestUint64s(ks, out)
		kept := 0
		for i, k := range ks {
			if final-before[i] <= g-1 {
				kept++
				if !out[i] || !w.TestUint64(k) {
					t.Fatalf("key %d lost: added from epoch %d, now %d", i, before[i], final)
				}
			}
		}
		t.Logf("%d rotations, %d keys inside the window checked", final, kept)
	})
}

// The concurrent dedup under rotation: racers deduplicate the same new
// keys, through all four forms, while another goroutine rotates without
// pause. For every key at least one call answers false: none of the keys
// is a false positive of the others (checked first), so the first write
// of a key's bits into any generation sees one of them unset, and a call
// answers true only after some write of the key. A call that answers
// false has added its key, which tests present to its caller right after
// unless G-1 rotations passed since the call began.
func TestWindowDedupConcurrent(t *testing.T) {
	const g, racers, keys, rounds = 3, 6, 64, 6
	ks := randomKeys(91, keys)
	for i, k := range ks {
		others, _ := NewWindow(700, 0.01, g)
		for j, o := range ks {
			if j != i {
				others.AddUint64(o)
			}
		}
		if others.TestUint64(k) {
			t.Fatalf("key %d is a false positive of the other %d keys", i, keys-1)
		}
	}
	kerneltest.ForEachLevel(t, func(t *testing.T) {
		for round := range rounds {
			w, _ := NewWindow(700, 0.01, g)
			forms := []func(k uint64) bool{
				w.TestAndAddUint64Concurrent,
				func(k uint64) bool { return w.TestAndAddConcurrent(keyBytes(k)) },
				func(k uint64) bool { return w.TestAndAddStringConcurrent(string(keyBytes(k))) },
				func(k uint64) bool { return w.TestAndAddHashConcurrent(engine.HashUint64Seed(k, w.Seed())) },
			}
			stopRotating := rotating(w, nil)
			var absent [keys]atomic.Int32
			start := make(chan struct{})
			var wg sync.WaitGroup
			for r := range racers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					call := forms[(r+round)%len(forms)]
					// Even rounds: every racer the same order, so calls
					// for one key meet; odd rounds: racers start apart.
					off := 0
					if round%2 == 1 {
						off = r * keys / racers
					}
					<-start
					for j := range keys {
						i := (j + off) % keys
						e := w.Epoch()
						if call(ks[i]) {
							continue
						}
						absent[i].Add(1)
						if !w.TestConcurrent(keyBytes(ks[i])) && w.Epoch()-e < g-1 {
							t.Errorf("round %d: key %d absent right after its add, %d rotations later", round, i, w.Epoch()-e)
							return
						}
					}
				}()
			}
			close(start)
			wg.Wait()
			stopRotating()
			for i := range absent {
				if absent[i].Load() == 0 {
					t.Errorf("round %d: all %d racing calls for new key %d answered present", round, racers, i)
				}
			}
		}
	})
}

// rotating rotates w on another goroutine until the returned stop is
// called, running between (if not nil) after each rotation.
func rotating(w *Window, between func(stop *atomic.Bool)) (stop func()) {
	var done atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !done.Load() {
			w.Rotate()
			if between != nil {
				between(&done)
			}
		}
	}()
	return func() {
		done.Store(true)
		wg.Wait()
	}
}

// A writer stalled between reading the epoch and writing its key while
// G-1 rotations pass would write into the oldest generation, which the
// next rotation clears; AddHashConcurrent sees the epoch moved and writes
// the key again, so it survives the G-1 rotations after the call.
func TestWindowStalledWriterConcurrent(t *testing.T) {
	const g = 4
	w, _ := NewWindow(1000, 0.01, g)
	stalled := false
	windowStallHook = func() {
		if !stalled {
			stalled = true
			for range g - 1 {
				w.Rotate()
			}
		}
	}
	defer func() { windowStallHook = nil }()
	w.AddUint64sConcurrent([]uint64{42})
	for i := range g {
		if !w.TestUint64(42) {
			t.Fatalf("key lost after %d rotations since its add returned", i)
		}
		if i < g-1 {
			w.Rotate()
		}
	}
}

// A writer that adds while a rotation clears must not return with its key
// in the generation that was current when the rotation began: that
// rotation began before the call returned, so the key would be a
// generation old already and survive only G-2 of the rotations after the
// call. The rotation is held in the middle (windowRotateHook) while the
// writer runs; the writer must wait for it and write into the new
// current generation.
func TestWindowAddDuringRotationConcurrent(t *testing.T) {
	for _, g := range []int{2, 3, 4} {
		w, _ := NewWindow(1000, 0.01, g)
		inRotation, release := make(chan struct{}), make(chan struct{})
		var once sync.Once
		windowRotateHook = func() {
			once.Do(func() {
				close(inRotation)
				<-release
			})
		}
		rotated := make(chan struct{})
		go func() { w.Rotate(); close(rotated) }()
		<-inRotation
		added := make(chan struct{})
		go func() { w.AddUint64sConcurrent([]uint64{42}); close(added) }()
		select {
		case <-added: // returned in the middle of the rotation: the bug
		case <-time.After(100 * time.Millisecond):
		}
		close(release)
		<-rotated
		<-added
		windowRotateHook = nil
		for i := range g {
			if !w.TestUint64(42) {
				t.Fatalf("G = %d: key lost after %d rotations since its add returned", g, i)
			}
			if i < g-1 {
				w.Rotate()
			}
		}
	}
}

func TestWindowCodec(t *testing.T) {
	w, _ := NewWindow(300, 0.02, 3, engine.WithSeed(6))
	ks := randomKeys(13, 2000)
	w.AddUint64s(ks[:1000])
	live := liveFrom(1000, 300, 3)
	for _, d := range roundTrip(t, w, func() *Window { return new(Window) }, DecodeWindow) {
		if d.Epoch() != w.Epoch() || d.Added() != w.Added() || d.Seed() != 6 || d.Generations() != 3 || d.N() != 300 || d.K() != w.K() {
			t.Fatalf("decoded %v, want %v", d, w)
		}
		checkMulti(t, d, ks, func(i int) bool { return i >= live && i < 1000 })
		d.AddUint64s(ks[1000:1200]) // the decoded window rotates on
		checkMulti(t, d, ks[1000:1200], func(int) bool { return true })
	}
	c := w.Clone()
	if c.Epoch() != w.Epoch() || c.Added() != w.Added() || c.EstimatedCount() != w.EstimatedCount() || w.EstimatedCount() < 500 {
		t.Errorf("clone %v (estimate %v), original %v (estimate %v)", c, c.EstimatedCount(), w, w.EstimatedCount())
	}
	c.Rotate()
	c.Rotate()
	c.Rotate()
	out := make([]bool, 1000)
	if c.TestUint64s(ks[:1000], out) != 0 || w.TestUint64s(ks[live:1000], out) != 1000-live {
		t.Error("clone shares bits with the original")
	}
	good, _ := w.MarshalBinary()
	h, payload, _ := store.DecodeEnvelope(good)
	for i, mutate := range []func(p []uint64){
		func(p []uint64) { p[0] = 0 },
		func(p []uint64) { p[1] = math.Float64bits(-1) },
		func(p []uint64) { p[2] = 0 },
		func(p []uint64) { p[2] = 65 },
		func(p []uint64) { p[2] = 2 },
		func(p []uint64) { p[3]++ },
		func(p []uint64) { p[3] = 1 << 62 },
		func(p []uint64) { p[4] = 0 },
		func(p []uint64) { p[4] = 65 },
		func(p []uint64) { p[5] = math.MaxUint64 }, // epoch: the next rotation would wrap
	} {
		p := append([]uint64(nil), h.Params...)
		mutate(p)
		bad, _ := store.AppendEnvelope(nil, store.Header{Family: h.Family, Version: h.Version, Seed: h.Seed, Params: p}, payload)
		if _, err := DecodeWindow(bad); !errors.Is(err, engine.ErrFormat) {
			t.Errorf("mutation %d: error %v", i, err)
		}
	}
}

// The golden Window: keys 0..2499 (8 little-endian bytes) added one by one
// to NewWindow(1000, 0.01, 2, WithSeed(2024)): epoch 2, keys 1000..2499
// live.
func TestWindowGolden(t *testing.T) {
	build := func() *Window {
		w, _ := NewWindow(1000, 0.01, 2, engine.WithSeed(2024))
		for k := range uint64(2500) {
			w.Add(keyBytes(k))
		}
		return w
	}
	g := checkGolden(t, "window_n1000_p1_g2_n2500_seed2024.bin", build, DecodeWindow)
	if g.Epoch() != 2 || g.Added() != 500 {
		t.Errorf("golden: %v", g)
	}
	checkGoldenFP(t, g, 1000, 2500, 963)
}

func FuzzDecodeWindow(f *testing.F) {
	w, _ := NewWindow(20, 0.01, 3)
	w.AddUint64s(randomKeys(1, 50))
	good, _ := w.MarshalBinary()
	golden, err := os.ReadFile(filepath.Join("testdata", "window_n1000_p1_g2_n2500_seed2024.bin"))
	if err != nil {
		f.Fatal(err)
	}
	fuzzDecoder(f, [][]byte{good, golden}, DecodeWindow)
}

// A decoded Window holds what NewWindow could have built: at most n keys
// in the current generation, and lines for n keys (between one line for
// n keys and one key per bit, the sizing's bounds); other envelopes, with
// valid checksums, are errors wrapping engine.ErrFormat.
func TestWindowDecodeGeometry(t *testing.T) {
	w, _ := NewWindow(300, 0.02, 3, engine.WithSeed(6))
	w.AddUint64s(randomKeys(14, 100))
	good, _ := w.MarshalBinary()
	h, payload, _ := store.DecodeEnvelope(good)
	lines := h.Params[3]
	for name, mutate := range map[string]func(p []uint64){
		"count above n":          func(p []uint64) { p[6] = p[0] + 1 },
		"count at 2^64-1":        func(p []uint64) { p[6] = math.MaxUint64 },
		"n above a key per bit":  func(p []uint64) { p[0] = 2*LineBits*lines + 1 },
		"n at 2^64-1":            func(p []uint64) { p[0] = math.MaxUint64 },
		"n below a line per key": func(p []uint64) { p[0] = lines - 1 },
	} {
		p := slices.Clone(h.Params)
		mutate(p)
		bad, _ := store.AppendEnvelope(nil, store.Header{Family: h.Family, Version: h.Version, Seed: h.Seed, Params: p}, payload)
		if d, err := DecodeWindow(bad); !errors.Is(err, engine.ErrFormat) {
			t.Errorf("%s: error %v (decoded %v)", name, err, d)
		}
	}
	for name, mutate := range map[string]func(p []uint64){
		"count = n":                     func(p []uint64) { p[6] = p[0] },
		"n at a key per bit":            func(p []uint64) { p[0] = 2 * LineBits * lines },
		"n at a line per key":           func(p []uint64) { p[0], p[6] = lines, lines },
		"largest epoch, count, p, seed": func(p []uint64) { p[5], p[6], p[1] = maxEpoch, p[0], math.Float64bits(0.12345678901234568) },
	} {
		p := slices.Clone(h.Params)
		mutate(p)
		ok, _ := store.AppendEnvelope(nil, store.Header{Family: h.Family, Version: h.Version, Seed: math.MaxUint64, Params: p}, payload)
		if _, err := DecodeWindow(ok); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// String stays within 200 bytes for every Window the decoder accepts:
// the longest value of every field the decoder's checks let through at
// once (a p of 17 significant digits and a 3-digit exponent, the largest
// seed, epoch, generations and lines; n and the count as large as the
// checks allow, or 2^64-1 if they allow that).
func TestWindowStringBound(t *testing.T) {
	gens := uint64(maxGenerations)
	lines := engine.MaxBits / LineBits / gens
	p := 1.2345678901234567e-300
	accepted := 0
	for _, n := range []uint64{math.MaxUint64, 2 * LineBits * lines} {
		for _, count := range []uint64{math.MaxUint64, n} {
			if checkWindow(n, p, gens, lines, engine.MaxK, maxEpoch, count) != nil {
				continue
			}
			accepted++
			w := &Window{gens: int(gens), lines: lines, k: engine.MaxK, n: n, p: p,
				seed: math.MaxUint64, epoch: maxEpoch, count: count}
			if s := w.String(); len(s) > 200 {
				t.Errorf("%d bytes: %s", len(s), s)
			}
		}
	}
	if accepted == 0 {
		t.Fatal("the decoder accepts none of the longest values")
	}
}
