package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"

	"github.com/filterengine/filterengine/gen/internal/genutil"
)

// updateKernels emits the single-key updates
// asm.counting{Add,TestAndAdd,Remove}{Key,Uint64,Hash}, twins of the
// Generic functions of the same names, for the filters and keys the test
// kernels take (openKey: avx512, Round4, 8-byte keys; the Go twin
// otherwise). After openKey's round they build the key's increments D,
// the line's 8 words with, in each nibble, the number of the key's
// probes on that counter: lane j of B holds probe j's bit offset in the
// line, 4q = (t_j >> 55) & 0x1fc (all ones in the lanes past K), and
// each of the 8 rotations of B (VALIGNQ) adds to lane w of D the word
// 1 << (4q - 64w), which VPSLLVQ makes zero unless 4q lies in word w (a
// count of 64 or more, negative ones included, shifts everything out):
// a rotation, a shift and an add each, no branch and no memory but the line,
// where a probe at a time takes a load, a shift, a compare and a store
// through the counter's word. A ninth probe adds its word the same way.
//
// Then the line L and D split into the low nibbles of each byte (AND
// 0x0f) and the high ones in place (ANDN 0x0f), and the op is byte
// arithmetic: Add stores min(lo+dlo, 15) | (hi+dhi saturated at 0xff,
// ANDed with 0xf0), which is min(c+d, 15) for each counter (sticky at 15;
// d probes on one counter raise it d times); Remove tests that no
// counter with d > 0 is zero (VPTESTMB, VPTESTNMB under it) and, if so,
// stores c-d floored at zero (VPSUBUSB) where c is not 15; TestAndAdd
// answers that test and adds. The whole line is one store.
func updateKernels(shifts Mem) {
	c := GLOBL("countingUpdateConsts", RODATA|NOPTR)
	for i, v := range []uint64{1, 0x1fc, 0x0f0f0f0f0f0f0f0f, 0xf0f0f0f0f0f0f0f0, ^uint64(0)} {
		DATA(8*i, U64(v))
	}
	words := GLOBL("countingUpdateWords", RODATA|NOPTR) // lane w: 64w, word w's first bit
	for w := range 8 {
		DATA(8*w, U64(uint64(64*w)))
	}
	k := updateConsts{one: c, offsetMask: c.Offset(8), low: c.Offset(16), high: c.Offset(24), ones: c.Offset(32), words: words}
	for _, op := range []string{"Add", "TestAndAdd", "Remove"} {
		for _, form := range []string{"Key", "Uint64", "Hash"} {
			updateKernel(op, form, shifts, k)
		}
	}
}

// updateConsts are the update kernels' constants.
type updateConsts struct {
	one, offsetMask, low, high, ones, words Mem
}

func updateKernel(op, form string, shifts Mem, c updateConsts) {
	name := "counting" + op + form
	arg := map[string]string{"Key": "key []byte", "Uint64": "key uint64", "Hash": "h uint64"}[form]
	sig := fmt.Sprintf("func(p *uint64, %s) bool", arg)
	if op == "Add" {
		sig = fmt.Sprintf("func(p *uint64, %s)", arg)
	}
	r := openKey(name, form, sig, fmt.Sprintf("%s is %sGeneric, dispatching itself: the twin for a key or filter it does not take (see updateKernels in gen/counting), one AVX-512 body otherwise.", name, name), shifts)

	// B: lane j is 4q_j for the key's probes, all ones past them.
	b, s := ZMM(), ZMM()
	VPBROADCASTQ(c.ones, b)
	VPSRLQ(U8(55), r.t, s)
	VPANDQ_BCST(c.offsetMask, s, r.lanes, b)

	// D = sum over rotations of 1 << (B rotated - 64w).
	one, words, d := ZMM(), ZMM(), ZMM()
	VPBROADCASTQ(c.one, one)
	VMOVDQU64(c.words, words)
	VPSUBQ(words, b, s)
	VPSLLVQ(s, one, d)
	for rot := 1; rot < 8; rot++ {
		VALIGNQ(U8(rot), b, b, s)
		VPSUBQ(words, s, s)
		VPSLLVQ(s, one, s)
		VPADDQ(s, d, d)
	}
	CMPL(r.n, U8(8))
	JBE(LabelRef(name + "_nibbles"))
	VPSLLQ(U8(56), r.vg, s) // the ninth probe, t_8 = g << 56, in every lane
	VPSRLQ(U8(55), s, s)
	VPANDQ_BCST(c.offsetMask, s, s)
	VPSUBQ(words, s, s)
	VPSLLVQ(s, one, s)
	VPADDQ(s, d, d)

	// The line and D by nibbles: lo the low nibble of each byte, hi the
	// high one in place.
	Label(name + "_nibbles")
	line := Mem{Base: r.line}
	low, lo, hi, dlo, dhi := ZMM(), ZMM(), ZMM(), ZMM(), ZMM()
	VPBROADCASTQ(c.low, low)
	VPANDQ(line, low, lo)
	VPANDNQ(line, low, hi)
	VPANDQ(d, low, dlo)
	VPANDNQ(d, low, dhi)

	if op != "Add" {
		// A counter the key probes (d > 0) at zero: the key is absent.
		zlo, zhi := K(), K()
		VPTESTMB(dlo, dlo, zlo)
		VPTESTNMB(lo, lo, zlo, zlo)
		VPTESTMB(dhi, dhi, zhi)
		VPTESTNMB(hi, hi, zhi, zhi)
		KORTESTQ(zlo, zhi)
		genutil.ReturnZF()
		if op == "Remove" {
			JNE(LabelRef(name + "_done"))
		}
	}
	if op == "Remove" {
		// c - d, floored at zero, where c is not 15.
		high := ZMM()
		VPBROADCASTQ(c.high, high)
		klo, khi := K(), K()
		VPCMPUB(U8(4), low, lo, klo) // 4: not equal
		VPCMPUB(U8(4), high, hi, khi)
		VPSUBUSB(dlo, lo, klo, lo)
		VPSUBUSB(dhi, hi, khi, hi)
		VPORQ(hi, lo, lo)
	} else {
		// min(c + d, 15): the low nibbles' sums are at most 24, the high
		// ones' saturate at 0xff, whose low nibble the merge drops.
		VPADDB(dlo, lo, lo)
		VPMINUB(low, lo, lo)
		VPADDUSB(dhi, hi, hi)
		VPTERNLOGQ(U8(0xba), lo, low, hi) // hi&^low | lo
		lo = hi
	}
	VMOVDQU64(lo, line)
	if op == "Remove" {
		Label(name + "_done")
	}
	VZEROUPPER()
	RET()

	Label(r.generic)
	genutil.TailJump("·" + name + "Generic")
}
