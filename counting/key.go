package counting

import "github.com/filterengine/filterengine/asm"

// setProbe makes f.probe, what the single-key kernels read
// (asm.CountingProbe), describe f: every constructor, decoder, Clone and
// Close calls it after setting the fields it copies. A version-1 filter
// gets a probe without lines whose Other is the filter's version-1
// operations (legacy), so Test, Add, Remove and their forms stay one
// inlined call; a closed one gets the zero probe, which panics with the
// zero Filter's message.
func (f *Filter) setProbe() {
	switch {
	case f.words == nil:
		f.probe = asm.CountingProbe{}
	case f.v1:
		f.probe = asm.NewCountingProbe(nil, 0, f.k, f.wide, f.seed)
		f.probe.Other = (*legacy)(f)
	default:
		f.probe = asm.NewCountingProbe(f.words, f.lines, f.k, f.wide, f.seed)
	}
}

// legacy is a version-1 Filter as asm.CountingLayout: its single-key
// operations for the probe.
type legacy Filter

func (l *legacy) TestHash(h uint64) bool       { return (*Filter)(l).v1Test(h) }
func (l *legacy) TestAndAddHash(h uint64) bool { return (*Filter)(l).v1TestAndAdd(h) }
func (l *legacy) RemoveHash(h uint64) bool     { return (*Filter)(l).v1Remove(h) }
