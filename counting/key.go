package counting

import "github.com/filterengine/filterengine/asm"

// setProbe makes f.probe, what the single-key test kernels read
// (asm.CountingProbe), describe f: every constructor, decoder, Clone and
// Close calls it after setting the fields it copies. A version-1 filter
// gets a probe without lines whose Other is v1Test, so Test and its
// forms stay one inlined call; a closed one gets the zero probe, which
// panics with the zero Filter's message.
func (f *Filter) setProbe() {
	switch {
	case f.words == nil:
		f.probe = asm.CountingProbe{}
	case f.v1:
		f.probe = asm.NewCountingProbe(nil, 0, f.k, f.wide, f.seed)
		f.probe.Other = f.v1Test
	default:
		f.probe = asm.NewCountingProbe(f.words, f.lines, f.k, f.wide, f.seed)
	}
}
