package counting

import "github.com/filterengine/filterengine/asm"

// setProbe makes f.probe, what the single-key kernels read
// (asm.CountingProbe), describe f: every constructor, decoder, Clone and
// Close calls it after setting the fields it copies. A closed filter gets
// the zero probe, which panics with the zero Filter's message.
func (f *Filter) setProbe() {
	switch {
	case f.words == nil:
		f.probe = asm.CountingProbe{}
	default:
		f.probe = asm.NewCountingProbe(f.words, f.lines, f.k, f.wide, f.seed)
	}
}
