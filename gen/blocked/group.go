package main

import (
	"fmt"
	"math/bits"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/filterengine/filterengine/gen/hash/xxh3"
)

// groupAhead is how many groups of eight keys ahead of the group it
// probes the grouped kernel prepares (hashes, lines, rounds), and one
// group less is how far ahead it prefetches: 56 to 63 keys, about
// asm.BlockedAhead.
const groupAhead = 8

// groupSlots is the ring of prepared groups, a power of two above
// groupAhead; a slot is 256 bytes: eight line offsets, eight g and eight
// window bytes.
const groupSlots = 16

// groupKernels emits asm.blocked{Test,Add}Uint64sAVX512: the batch test
// and add of 8-byte keys for a filter with k <= 8 and fewer than 2^32
// lines, eight keys at a time with the hash fused in. Per group of eight
// keys the scalar work of the key-at-a-time kernels is done in ZMM
// registers: the keys' XXH3 (xxh3.AVX512), the line index as the high
// word of h*lines from two 32x32 products (lines < 2^32 makes the high
// half of lines zero), g = h*BlockedMul by one VPMULLQ, and the key's
// window of words by one VPERMQ from a table of the eight rotations of
// k%8's enabled words, narrowed to a byte per key (VPMOVQB) that a KMOVB
// turns into the lane mask. A group is prepared groupAhead groups before
// it is probed, into a ring of slots on the stack, so no load waits on the
// store before it, and the lines of the group prepared one round earlier
// are prefetched one per key while the current group is probed. Each key
// then costs a broadcast of its g, the per-word shift, a zero-masked
// rotate of 1 by the bit (VPROLVQ counts modulo 64: the & 63 of the
// scheme), and the line's AND and compare (test) or OR and store (add);
// a test collects the eight answers as bits and writes them as eight
// bytes at once.
func groupKernels() {
	wintab := GLOBL("blockedWindowRows", RODATA|NOPTR)
	for r := range 8 {
		base := uint8(0xff >> ((8 - r) & 7))
		for s := range 8 {
			DATA(64*r+8*s, U64(uint64(bits.RotateLeft8(base, s))))
		}
	}
	spread := GLOBL("blockedByteSpread", RODATA|NOPTR)
	DATA(0, U64(0x0101010101010101))
	for _, hashed := range []bool{false, true} {
		groupKernel(true, hashed, wintab, spread)
		groupKernel(false, hashed, wintab, spread)
	}
}

// groupKernel emits one grouped kernel: of keys (hashed here) or of
// hashes; a test or an add. The keys' form takes n = len(ks) keys; the
// hashes' form takes n = len(out) (test) or n (add) of hs, and prepares
// and prefetches groups past them as far as hs holds whole groups (the
// next chunk's first hashes, as the key-at-a-time kernels do).
func groupKernel(test, hashed bool, wintab, spread Mem) {
	op, form := "Add", "Uint64s"
	if test {
		op = "Test"
	}
	in, what := "ks", "the hashes of ks (key is hashing.Uint64Key(seed))"
	var sig string
	switch {
	case hashed && test:
		form, in, what = "Groups", "hs", "the first len(out) hashes of hs"
		sig = "func(words []uint64, hs []uint64, out []bool, k uint32) int"
	case hashed:
		form, in, what = "Groups", "hs", "the first n hashes of hs"
		sig = "func(words []uint64, hs []uint64, n int, k uint32)"
	case test:
		sig = "func(words []uint64, ks []uint64, out []bool, k uint32, key uint64) int"
	default:
		sig = "func(words []uint64, ks []uint64, k uint32, key uint64)"
	}
	name := fmt.Sprintf("blocked%s%sAVX512", op, form)
	TEXT(name, 0, sig)
	Pragma("noescape")
	Doc(fmt.Sprintf("%s is blocked%sHashesGeneric of %s for k <= 8, fewer than 2^32 lines and a multiple of 8 keys (see groupKernels in gen/blocked).", name, op, what))
	words := Load(Param("words").Base(), GP64())
	lines := Load(Param("words").Len(), GP64())
	SHRQ(U8(3), lines)
	kp := Load(Param(in).Base(), GP64())
	// n keys are answered; groups below lim are prepared and prefetched.
	n, lim := GP64(), GP64()
	Load(Param(in).Len(), lim)
	ANDQ(I8(-8), lim)
	var outp, hits reg.Register
	switch {
	case test:
		outp = Load(Param("out").Base(), GP64())
		Load(Param("out").Len(), n)
		hits = GP64()
		XORQ(hits, hits)
	case hashed:
		Load(Param("n"), n)
	default:
		MOVQ(lim, n)
	}
	k := Load(Param("k"), GP64())
	var c xxh3.AVX512
	if !hashed {
		seedKey := Load(Param("key"), GP64())
		c = xxh3.NewAVX512(seedKey)
	}

	zl, zm, zsh, zone, zwin := ZMM(), ZMM(), ZMM(), ZMM(), ZMM()
	VPBROADCASTQ(lines, zl)
	VPBROADCASTQ(mul, zm)
	VMOVDQU64(shifts, zsh)
	VPBROADCASTQ(one, zone)
	ANDQ(U8(7), k)
	SHLQ(U8(6), k)
	wp := GP64()
	LEAQ(wintab, wp)
	VMOVDQU64(Mem{Base: wp, Index: k, Scale: 1}, zwin)

	ring := AllocLocal(groupSlots * 256)
	base := GP64()
	LEAQ(ring, base)
	// slot sets r to the slot of the group whose first key is i.
	slot := func(i, r reg.Register) {
		MOVQ(i, r)
		ANDQ(U32(8*(groupSlots-1)), r)
		SHLQ(U8(5), r)
		ADDQ(base, r)
	}
	// prepare fills the slot of the group from key i: its hashes' line
	// offsets, g and window bytes.
	prepare := func(i reg.Register) {
		sp := GP64()
		slot(i, sp)
		h, o, t, g := ZMM(), ZMM(), ZMM(), ZMM()
		VMOVDQU64(Mem{Base: kp, Index: i, Scale: 8}, h)
		if !hashed {
			t1, t2 := ZMM(), ZMM()
			c.Hash(h, t1, t2)
		}
		// hi(h*lines) = (hh*lines + (hl*lines >> 32)) >> 32, times 64.
		VPMULUDQ(zl, h, t)
		VPSRLQ(U8(32), t, t)
		VPSRLQ(U8(32), h, o)
		VPMULUDQ(zl, o, o)
		VPADDQ(t, o, o)
		VPSRLQ(U8(32), o, o)
		VPSLLQ(U8(6), o, o)
		VMOVDQU64(o, Mem{Base: sp})
		VPMULLQ(zm, h, g)
		VMOVDQU64(g, Mem{Base: sp, Disp: 64})
		// The window: row entry (g >> 13) & 7 (VPERMQ reads the low
		// three bits of each index), a byte per key.
		VPSRLQ(U8(13), g, t)
		VPERMQ(zwin, t, t)
		VPMOVQB(t, Mem{Base: sp, Disp: 128})
	}

	// Prologue: prepare the first groupAhead groups, as many as there are.
	i := GP64()
	XORQ(i, i)
	Label(name + "_first")
	CMPQ(i, lim)
	JAE(LabelRef(name + "_loop"))
	CMPQ(i, U32(8*groupAhead))
	JAE(LabelRef(name + "_loop"))
	prepare(i)
	ADDQ(U8(8), i)
	JMP(LabelRef(name + "_first"))

	Label(name + "_loop")
	XORQ(i, i)
	Label(name + "_group")
	CMPQ(i, n)
	JAE(LabelRef(name + "_done"))
	// Prepare the group groupAhead on, and find the slot of the one
	// before it, prepared a round ago, to prefetch (or none past n).
	ahead, pf := GP64(), GP64()
	LEAQ(Mem{Base: i, Disp: 8 * groupAhead}, ahead)
	LEAQ(Mem{Base: i, Disp: 8 * (groupAhead - 1)}, pf)
	CMPQ(ahead, lim)
	JAE(LabelRef(name + "_noprep"))
	prepare(ahead)
	Label(name + "_noprep")
	// Without a group to prefetch, the current group's lines are
	// prefetched again: harmless, and no branch per key.
	cur, pslot := GP64(), GP64()
	slot(i, cur)
	MOVQ(cur, pslot)
	CMPQ(pf, lim)
	JAE(LabelRef(name + "_probe"))
	slot(pf, pslot)
	Label(name + "_probe")
	var acc reg.Register
	if test {
		acc = GP64()
		XORQ(acc, acc)
	}
	for j := range 8 {
		// Prefetch key j of the group a round ahead.
		pr := GP64()
		MOVQ(Mem{Base: pslot, Disp: 8 * j}, pr)
		PREFETCHT0(Mem{Base: words, Index: pr, Scale: 1})
		win := K()
		KMOVB(Mem{Base: cur, Disp: 128 + j}, win)
		b, m := ZMM(), ZMM()
		VPBROADCASTQ(Mem{Base: cur, Disp: 64 + 8*j}, b)
		VPSRLVQ(zsh, b, b)
		VPROLVQ_Z(b, zone, win, m)
		r := GP64()
		MOVQ(Mem{Base: cur, Disp: 8 * j}, r)
		line := Mem{Base: words, Index: r, Scale: 1}
		if test {
			t, held := ZMM(), K()
			VPANDQ(line, m, t)
			VPCMPEQQ(m, t, held)
			KORTESTB(held, held)
			ADCQ(acc, acc) // acc = 2*acc + CF: key 0 ends in bit 7
		} else {
			VPORQ(line, m, m)
			VMOVDQU64(m, line)
		}
	}
	if test {
		// Bit 7-j of acc is key j's answer: one byte per bit, then the
		// bytes reversed, puts key j's in byte j.
		cnt := GP64()
		POPCNTQ(acc, cnt)
		ADDQ(cnt, hits)
		sp := GP64()
		MOVQ(spread, sp)
		PDEPQ(sp, acc, acc)
		BSWAPQ(acc)
		MOVQ(acc, Mem{Base: outp, Index: i, Scale: 1})
	}
	ADDQ(U8(8), i)
	JMP(LabelRef(name + "_group"))

	Label(name + "_done")
	VZEROUPPER()
	if test {
		Store(hits, ReturnIndex(0))
	}
	RET()
}
