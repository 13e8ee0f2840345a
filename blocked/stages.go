package blocked

import (
	"math"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/batch"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/store"
)

// This file holds what Scalable and Window share: a list of blocked
// filters that one hash probes together.

// stageChunk is how many keys testAny takes at a time: a batch.Hashes
// chunk, so its index buffers fit the keys of one.
const stageChunk = batch.Chunk

// stageLead is how many filters, at the head of the probe order, the
// batch tests run as a set of their own before the rest.
const stageLead = 2

// stageSets appends to dst the sets of fs that testAny runs in turn.
// Filters that share k are tested together (asm.BlockedSet: one mask per
// key, then the key's line in every filter of the set): the first
// stageLead filters, which hold most members in the probe order, as one
// set, and the rest, over the keys still absent, as another, so a member
// found early costs no probe of the later filters. Filters of different k
// are cut into runs of one k, tested in turn the same way.
func stageSets(dst []asm.BlockedSet, fs []*Filter) []asm.BlockedSet {
	if len(fs) > 1 && sameK(fs) {
		if len(fs) > stageLead+1 {
			return append(dst, newSet(fs[:stageLead]), newSet(fs[stageLead:]))
		}
		return append(dst, newSet(fs))
	}
	for len(fs) > 0 {
		run := 1
		for run < len(fs) && fs[run].p.K == fs[0].p.K {
			run++
		}
		dst = append(dst, newSet(fs[:run]))
		fs = fs[run:]
	}
	return dst
}

// newSet returns the set of filters fs, which share k.
func newSet(fs []*Filter) asm.BlockedSet {
	words := make([][]uint64, len(fs))
	for i, f := range fs {
		words[i] = f.p.Words
	}
	return asm.NewBlockedSet(words, fs[0].p.K)
}

func sameK(fs []*Filter) bool {
	for _, f := range fs {
		if f.p.K != fs[0].p.K {
			return false
		}
	}
	return true
}

// testAny sets out[i] to whether hs[i] tests present in any of the sets
// and returns the number of hits; len(hs) <= stageChunk. Each set runs
// over the keys still absent after the sets before it, so a hit in an
// early set costs no later probe.
func testAny(sets []asm.BlockedSet, hs []uint64, out []bool) int {
	out = out[:len(hs)]
	if len(sets) == 0 {
		clear(out)
		return 0
	}
	hits := sets[0].TestHashes(hs, out)
	var rest [stageChunk]uint64
	var idx [stageChunk]uint16
	var res [stageChunk]bool
	m := 0
	for i, h := range hs {
		rest[m], idx[m] = h, uint16(i)
		m += int(b2u(!out[i]))
	}
	for _, set := range sets[1:] {
		if m == 0 {
			break
		}
		hits += set.TestHashes(rest[:m], res[:m])
		w := 0
		for j := range m {
			out[idx[j]] = res[j]
			rest[w], idx[w] = rest[j], idx[j]
			w += int(b2u(!res[j]))
		}
		m = w
	}
	return hits
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// testAnyHashes is testAny over any number of hashes; name is the
// caller's type, for a short out's message.
func testAnyHashes(name string, sets []asm.BlockedSet, hs []uint64, out []bool) int {
	out = batch.Out(name, out, len(hs))
	hits := 0
	for len(hs) > 0 {
		c := min(len(hs), stageChunk)
		hits += testAny(sets, hs[:c], out[:c])
		hs, out = hs[c:], out[c:]
	}
	return hits
}

// growOptions splits the options of Scalable and Window: their own family
// options go to own, which reports whether it knew each one; the shared
// ones are kept for the blocked filters they build.
func growOptions(family string, opts []engine.Option, own func(v any) (bool, error)) (config.Config, []engine.Option, error) {
	c := config.Apply(opts)
	for _, v := range c.Family() {
		ok, err := own(v)
		if err != nil {
			return c, nil, err
		}
		if !ok {
			return c, nil, config.UnknownOption(family, v)
		}
	}
	return c, []engine.Option{engine.WithSeed(c.Seed), engine.WithHugePages(c.HugePages)}, nil
}

// sizeFor returns the bits (whole lines) and probes of a blocked filter
// for n keys at p, as New chooses them.
func sizeFor(n uint64, p float64) (uint64, uint32, error) {
	if err := errs.CheckNP(n, p); err != nil {
		return 0, 0, err
	}
	bpk, k, err := BitsPerKeyAndK(p)
	if err != nil {
		return 0, 0, err
	}
	m := math.Ceil(float64(n)*bpk/LineBits) * LineBits
	if m > engine.MaxBits {
		return 0, 0, errs.ParamErrorf("n = %d, p = %v needs %.3g bits, above the maximum %d", n, p, m, uint64(engine.MaxBits))
	}
	return uint64(m), k, nil
}

// decodeInto adapts a type's decode method, bound to t, to the callback
// of store.Unmarshal and store.ReadFrom: the in-place decoders
// (UnmarshalBinary, ReadFrom) take no options.
func decodeInto[T any](t *T, decode func(*T, store.Header, []byte, []engine.Option) error) func(store.Header, []byte) error {
	return func(h store.Header, payload []byte) error { return decode(t, h, payload, nil) }
}
