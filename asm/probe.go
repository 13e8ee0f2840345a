package asm

import "unsafe"

// The single-key kernels take their family's probe struct (BlockedProbe,
// ShiftingProbe, SpatialProbe) as a *uint64, since avo's signatures name
// no package types: probeAddr gives the kernels that pointer and probeAt
// turns it back in their Generic twins.

func probeAddr[P any](p *P) *uint64 { return (*uint64)(unsafe.Pointer(p)) }

func probeAt[P any](p *uint64) *P { return (*P)(unsafe.Pointer(p)) }
