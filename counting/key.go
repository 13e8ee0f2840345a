package counting

import "github.com/filterengine/filterengine/asm"

// setProbe makes f.probe, what the single-key kernels read
// (asm.CountingProbe), describe f: every constructor, decoder, Clone and
// Close calls it after setting the fields it copies. A version-1 filter
// gets a probe without lines whose Other, OtherAdd and OtherRemove are
// v1Test, v1TestAndAdd and v1Remove, so Test, Add, Remove and their
// forms stay one inlined call; a closed one gets the zero probe, which
// panics with the zero Filter's message.
func (f *Filter) setProbe() {
	switch {
	case f.words == nil:
		f.probe = asm.CountingProbe{}
	case f.v1:
		f.probe = asm.NewCountingProbe(nil, 0, f.k, f.wide, f.seed)
		f.probe.Other, f.probe.OtherAdd, f.probe.OtherRemove = f.v1Test, f.v1TestAndAdd, f.v1Remove
	default:
		f.probe = asm.NewCountingProbe(f.words, f.lines, f.k, f.wide, f.seed)
	}
}
