package blocked

import (
	"math"
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/batch"
)

// This file holds what Scalable and Window share: a list of blocked
// filters that one hash probes together.

// stageChunk is how many keys testAny takes at a time: a batch.Hashes
// chunk, so its index buffers fit the keys of one.
const stageChunk = batch.Chunk

// Probe strategies of the multi-filter batch tests, switched by
// benchmarks to compare them: with probeFused false every filter's batch
// kernel runs over the keys still absent after the filters before it;
// with probeFused true filters that share k go through the fused kernel
// (asm.BlockedTestMultiHashes: one mask per key, then the key's line in
// every filter of the group), the first probeLead filters as one group
// and the rest, over the keys still absent, as another (probeLead 0: all
// in one group). With Scalable's 14 stages after 1e7 keys the split (the
// three stages that hold most keys first, so most members skip the
// rest) ran 38 ns/key against 46 for one group and 45 for one pass per
// stage, in one process on the AMD EPYC VM (AVX-512).
var (
	probeFused = true
	probeLead  = 3
)

// span is a group of filters, fs[lo:hi].
type span struct{ lo, hi int }

// probeGroups cuts fs into the groups testAny runs in turn, into buf.
func probeGroups(fs []*Filter, buf *[maxStages + 1]span) []span {
	groups := buf[:0]
	if probeFused && len(fs) > 1 && sameK(fs) {
		if probeLead > 0 && len(fs) > probeLead+1 {
			return append(groups, span{0, probeLead}, span{probeLead, len(fs)})
		}
		return append(groups, span{0, len(fs)})
	}
	for i := range fs {
		groups = append(groups, span{i, i + 1})
	}
	return groups
}

func sameK(fs []*Filter) bool {
	for _, f := range fs {
		if f.p.K != fs[0].p.K {
			return false
		}
	}
	return true
}

// testGroup runs one group's kernel: the filter's own, or the fused one.
func testGroup(g []*Filter, hs []uint64, out []bool) int {
	if len(g) == 1 {
		return g[0].TestHashes(hs, out)
	}
	var words [asm.BlockedMaxFilters][]uint64
	for i, f := range g {
		words[i] = f.p.Words
	}
	hits := asm.BlockedTestMultiHashes(words[:len(g)], g[0].p.K, hs, out)
	runtime.KeepAlive(g)
	return hits
}

// testAny sets out[i] to whether hs[i] tests present in any of the filters
// of the groups of fs, and returns the number of hits; len(hs) <= stageChunk. Each
// group runs over the keys still absent after the groups before it, so a
// hit in an early group costs no later probe.
func testAny(fs []*Filter, groups []span, hs []uint64, out []bool) int {
	out = out[:len(hs)]
	if len(groups) == 0 {
		clear(out)
		return 0
	}
	hits := testGroup(fs[groups[0].lo:groups[0].hi], hs, out)
	var rest [stageChunk]uint64
	var idx [stageChunk]uint16
	var res [stageChunk]bool
	m := 0
	for i, h := range hs {
		rest[m], idx[m] = h, uint16(i)
		m += int(b2u(!out[i]))
	}
	for _, g := range groups[1:] {
		if m == 0 {
			break
		}
		hits += testGroup(fs[g.lo:g.hi], rest[:m], res[:m])
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
func testAnyHashes(name string, fs []*Filter, hs []uint64, out []bool) int {
	out = batch.Out(name, out, len(hs))
	var buf [maxStages + 1]span
	groups := probeGroups(fs, &buf)
	hits := 0
	for len(hs) > 0 {
		c := min(len(hs), stageChunk)
		hits += testAny(fs, groups, hs[:c], out[:c])
		hs, out = hs[c:], out[c:]
	}
	return hits
}

// growOptions splits the options of Scalable and Window: their own family
// options go to own, which reports whether it knew each one; the shared
// ones are kept for the blocked filters they build.
func growOptions(family string, opts []engine.Option, own func(v any) (bool, error)) (engine.Config, []engine.Option, error) {
	c := engine.Apply(opts)
	for _, v := range c.Family() {
		ok, err := own(v)
		if err != nil {
			return c, nil, err
		}
		if !ok {
			return c, nil, engine.UnknownOption(family, v)
		}
	}
	return c, []engine.Option{engine.WithSeed(c.Seed), engine.WithHugePages(c.HugePages)}, nil
}

// sizeFor returns the bits (whole lines) and probes of a blocked filter
// for n keys at p, as New chooses them.
func sizeFor(n uint64, p float64) (uint64, uint32, error) {
	if err := engine.CheckNP(n, p); err != nil {
		return 0, 0, err
	}
	bpk, k, err := BitsPerKeyAndK(p)
	if err != nil {
		return 0, 0, err
	}
	m := math.Ceil(float64(n)*bpk/LineBits) * LineBits
	if m > engine.MaxBits {
		return 0, 0, engine.ParamErrorf("n = %d, p = %v needs %.3g bits, above the maximum %d", n, p, m, uint64(engine.MaxBits))
	}
	return uint64(m), k, nil
}

// decodeInto adapts a type's decode method, bound to t, to the callback
// of engine.Unmarshal and engine.ReadFrom: the in-place decoders
// (UnmarshalBinary, ReadFrom) take no options.
func decodeInto[T any](t *T, decode func(*T, engine.Header, []byte, []engine.Option) error) func(engine.Header, []byte) error {
	return func(h engine.Header, payload []byte) error { return decode(t, h, payload, nil) }
}
