package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// strideUnroll is the most generations the strided test has a loop
// unrolled for; a window of more runs the loop over generations.
const strideUnroll = 8

// strideKernel emits blockedTestStrideHashes<ISA>, the twin of
// asm.blockedTestStrideHashesGeneric: gens blocked filters of one geometry
// interleaved line by line in words (a Window's generations: line j of
// filter g at byte (j*gens + g)*64). Per key the line index and the mask
// are computed once, then the key's gens adjacent lines are tested and the
// answers ORed, without a branch on them. With dist > 0 the lines of the
// key dist places ahead are prefetched.
//
// The common shapes get their own loops: one per generation count up to
// strideUnroll (the lines at constant displacements, no loop counter),
// each in two forms, k < 8 (the mask is the one partial round, written
// straight into the mask register) and any k. More generations run the
// general loop.
func strideKernel(v isa) {
	name := fmt.Sprintf("blockedTestStrideHashes%s", v.name())
	TEXT(name, NOSPLIT, "func(words []uint64, hs []uint64, out []bool, k uint32, lines int, gens int, dist int) int")
	Pragma("noescape")
	Doc(name + " is blockedTestStrideHashesGeneric; dist > 0 prefetches the lines of the key dist places ahead.")
	var s strideState
	s.words = Load(Param("words").Base(), GP64())
	gens := Load(Param("gens"), GP64())
	Load(Param("lines"), reg.RDX) // MULX multiplies by RDX: the line count stays there.
	s.hp = Load(Param("hs").Base(), GP64())
	s.n = Load(Param("hs").Len(), GP64())
	s.outp = Load(Param("out").Base(), GP64())
	pf := Load(Param("dist"), GP64())
	s.hits = GP64()
	XORQ(s.hits, s.hits)
	k := Load(Param("k"), GP64())
	s.rem2 = splitK(k)
	s.rounds, s.dist, s.gens, s.group = AllocLocal(8), AllocLocal(8), AllocLocal(8), AllocLocal(8)
	MOVQ(k, s.rounds)
	MOVQ(pf, s.dist)
	MOVQ(gens, s.gens)
	group := GP64()
	MOVQ(gens, group)
	SHLQ(U8(6), group) // bytes of a key's lines
	MOVQ(group, s.group)
	v.setup()

	s.name = name
	CMPQ(gens, U8(strideUnroll))
	JA(LabelRef(name + "_general"))
	CMPQ(s.rounds, U8(0))
	JNE(LabelRef(name + "_anyk"))
	for g := 1; g <= strideUnroll; g++ {
		CMPQ(gens, U8(g))
		JE(LabelRef(fmt.Sprintf("%s_small_g%d", name, g)))
	}
	Label(name + "_anyk")
	for g := 1; g <= strideUnroll; g++ {
		CMPQ(gens, U8(g))
		JE(LabelRef(fmt.Sprintf("%s_any_g%d", name, g)))
	}
	JMP(LabelRef(name + "_general"))
	for _, small := range []bool{true, false} {
		for g := 1; g <= strideUnroll; g++ {
			s.unrolled(v, g, small)
		}
	}
	s.general(v)

	Label(name + "_done")
	VZEROUPPER()
	Store(s.hits, ReturnIndex(0))
	RET()
}

// strideAddKernel emits blockedAddStrideHashes<ISA>, the twin of
// asm.blockedAddStrideHashesGeneric: the batch add into one filter of the
// strided layout, the add kernel's loops (kernel) with line j at byte
// j*scale from words (the caller passes words from the filter's first line
// on, and scale = gens*64).
func strideAddKernel(v isa) {
	name := fmt.Sprintf("blockedAddStrideHashes%s", v.name())
	TEXT(name, NOSPLIT, "func(words []uint64, hs []uint64, k uint32, lines int, scale int, dist int)")
	Pragma("noescape")
	Doc(name + " is blockedAddStrideHashesGeneric; dist > 0 prefetches the line of the key dist places ahead.")
	var s gp
	s.words = Load(Param("words").Base(), GP64())
	Load(Param("lines"), reg.RDX) // MULX multiplies by RDX: the line count stays there.
	s.scale = Load(Param("scale"), GP64())
	s.hp = Load(Param("hs").Base(), GP64())
	s.n = Load(Param("hs").Len(), GP64())
	s.k = Load(Param("k"), GP64())
	s.dist = Load(Param("dist"), GP64())
	s.rem2 = splitK(s.k)
	v.setup()
	keyLoops(v, s, name, name+"_done", false, true)
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// strideState is the strided kernel's state: registers, and stack slots
// for what the loops read once per key at most.
type strideState struct {
	name                           string
	words, hp, n, outp, hits, rem2 reg.Register
	rounds, dist, gens, group      Mem
}

// unrolled emits the loops for exactly gens generations: while a key dist
// places ahead exists, prefetch its lines and test the current key; then
// test the rest.
func (s strideState) unrolled(v isa, gens int, small bool) {
	form := "any"
	if small {
		form = "small"
	}
	loop := fmt.Sprintf("%s_%s_g%d", s.name, form, gens)
	Label(loop)
	CMPQ(s.dist, U8(0))
	JE(LabelRef(loop + "_plain"))
	Label(loop + "_prefetch")
	CMPQ(s.n, s.dist)
	JLE(LabelRef(loop + "_plain"))
	ph, lo, line := GP64(), GP64(), GP64()
	MOVQ(s.dist, ph)
	MOVQ(Mem{Base: s.hp, Index: ph, Scale: 8}, ph)
	MULXQ(ph, lo, line)
	IMUL3Q(U32(64*gens), line, line)
	ADDQ(s.words, line)
	for _, a := range strideAddrs(line, gens) {
		PREFETCHT0(a)
	}
	s.key(v, gens, small)
	JMP(LabelRef(loop + "_prefetch"))
	Label(loop + "_plain")
	TESTQ(s.n, s.n)
	JZ(LabelRef(s.name + "_done"))
	s.key(v, gens, small)
	JMP(LabelRef(loop + "_plain"))
}

// key tests the key at hp in gens generations, stores its answer and
// advances hp, outp and n.
func (s strideState) key(v isa, gens int, small bool) {
	h, lo, line, g := GP64(), GP64(), GP64(), GP64()
	MOVQ(Mem{Base: s.hp}, h)
	MULXQ(h, lo, line)
	IMUL3Q(U32(64*gens), line, line)
	ADDQ(s.words, line)
	MOVQ(h, g)
	IMULQ(mul, g)
	if small {
		// k < 8: g is g0, and the one round is the partial one; its
		// enabled words are rotl8(rem2, (g0 >> 13) & 7), as maskRounds
		// computes them.
		e := GP64()
		MOVQ(g, e)
		SHRQ(U8(13), e)
		ANDQ(U8(7), e)
		SHLXQ(e, s.rem2, e)
		SHRQ(U8(8), e)
		v.setMask(g, e)
	} else {
		v.clear()
		maskRounds(v, h, g, s.rounds, s.rem2)
	}
	hit := v.anyHolds(strideAddrs(line, gens))
	MOVB(hit.As8(), Mem{Base: s.outp})
	ADDQ(hit, s.hits)
	INCQ(s.outp)
	ADDQ(U8(8), s.hp)
	DECQ(s.n)
}

// strideAddrs returns the addresses of a key's gens adjacent lines from
// line on.
func strideAddrs(line reg.Register, gens int) []Mem {
	var out []Mem
	for g := range gens {
		out = append(out, Mem{Base: line, Disp: 64 * g})
	}
	return out
}

// general emits the loop over any number of generations: the key's lines
// are tested in turn, the answers ORed.
func (s strideState) general(v isa) {
	name := s.name
	Label(name + "_general")
	Label(name + "_key")
	TESTQ(s.n, s.n)
	JZ(LabelRef(name + "_done"))
	CMPQ(s.dist, U8(0))
	JE(LabelRef(name + "_probe"))
	CMPQ(s.n, s.dist)
	JLE(LabelRef(name + "_probe"))
	{
		ph, lo, line, c := GP64(), GP64(), GP64(), GP64()
		MOVQ(s.dist, ph)
		MOVQ(Mem{Base: s.hp, Index: ph, Scale: 8}, ph)
		MULXQ(ph, lo, line)
		IMULQ(s.group, line)
		ADDQ(s.words, line)
		MOVQ(s.gens, c)
		Label(name + "_prefetch")
		PREFETCHT0(Mem{Base: line})
		ADDQ(U8(64), line)
		DECQ(c)
		JNZ(LabelRef(name + "_prefetch"))
	}
	Label(name + "_probe")
	h, g, lo, line := GP64(), GP64(), GP64(), GP64()
	MOVQ(Mem{Base: s.hp}, h)
	MULXQ(h, lo, line)
	IMULQ(s.group, line)
	ADDQ(s.words, line)
	MOVQ(h, g)
	IMULQ(mul, g)
	v.clear()
	maskRounds(v, h, g, s.rounds, s.rem2)
	c, acc := GP64(), GP64()
	MOVQ(s.gens, c)
	XORQ(acc, acc)
	Label(name + "_gen")
	v.test(line)
	hit := GP8()
	SETEQ(hit)
	ORB(hit, acc.As8())
	ADDQ(U8(64), line)
	DECQ(c)
	JNZ(LabelRef(name + "_gen"))
	MOVB(acc.As8(), Mem{Base: s.outp})
	ADDQ(acc, s.hits)
	INCQ(s.outp)
	ADDQ(U8(8), s.hp)
	DECQ(s.n)
	JMP(LabelRef(name + "_key"))
}

// setMask sets the mask to the bits of one round of g, in the words whose
// bits are set in enable (bits 0..7): k < 8's one round, without clearing
// and ORing.
func (a avx2) setMask(g, enable reg.Register) {
	t0, t1 := a.roundBits(g)
	a.enabled(enable, t0, t1, y.m0, y.m1)
}

// anyHolds returns 1 in a register if any of the lines at addrs holds the
// whole mask, else 0: each line's missing bits are ORed over its two
// halves and tested, the answers ORed without a branch.
func (avx2) anyHolds(addrs []Mem) reg.GPVirtual {
	acc := GP64()
	XORQ(acc, acc)
	for _, a := range addrs {
		l0, l1 := YMM(), YMM()
		VMOVDQU(a, l0)
		VMOVDQU(a.Offset(32), l1)
		VPANDN(y.m0, l0, l0)
		VPANDN(y.m1, l1, l1)
		VPOR(l0, l1, l0)
		VPTEST(l0, l0)
		hit := GP8()
		SETEQ(hit)
		ORB(hit, acc.As8())
	}
	return acc
}

func (avx512) setMask(g, enable reg.Register) {
	gv, t, k := ZMM(), ZMM(), K()
	KMOVB(enable.(reg.GPVirtual).As32(), k)
	VPBROADCASTQ(g, gv)
	VPSRLVQ(z.sh, gv, t)
	VPANDQ(z.six3, t, t)
	VPSLLVQ_Z(t, z.one, k, z.m)
}

// anyHolds, AVX-512: per line one AND with the mask (the load folded in)
// and one compare give the words missing a bit, a k register of eight bits
// that is zero when the line holds the key. The k registers are packed
// into one (KUNPCK, padded with all-ones to 2, 4 or 8 of them), spread to
// bytes (VPMOVM2B), and a quadword test finds any line's byte group zero.
func (avx512) anyHolds(addrs []Mem) reg.GPVirtual {
	type packed struct {
		k     reg.Register
		level int // 2^level lines' bits
	}
	var stack []packed
	var ones reg.Register
	unpack := func(lo, hi packed) packed {
		d := K()
		switch lo.level {
		case 0:
			KUNPCKBW(lo.k, hi.k, d)
		case 1:
			KUNPCKWD(lo.k, hi.k, d)
		default:
			KUNPCKDQ(lo.k, hi.k, d)
		}
		return packed{d, lo.level + 1}
	}
	push := func(p packed) {
		stack = append(stack, p)
		for len(stack) > 1 && stack[len(stack)-1].level == stack[len(stack)-2].level {
			lo, hi := stack[len(stack)-2], stack[len(stack)-1]
			stack = append(stack[:len(stack)-2], unpack(lo, hi))
		}
	}
	for _, a := range addrs {
		t, k := ZMM(), K()
		VPANDQ(a, z.m, t)
		VPCMPUQ(U8(4), z.m, t, k) // not equal: the word misses a bit
		push(packed{k, 0})
	}
	acc := GP64()
	if len(addrs) == 1 {
		XORQ(acc, acc)
		KORTESTB(stack[0].k, stack[0].k)
		SETEQ(acc.As8())
		return acc
	}
	for len(stack) > 1 {
		if ones == nil {
			o := GP64()
			MOVQ(I64(-1), o)
			ones = K()
			KMOVQ(o, ones)
		}
		push(packed{ones, stack[len(stack)-1].level})
	}
	var bytes, x reg.Register
	switch stack[0].level {
	case 1:
		bytes = XMM()
	case 2:
		bytes = YMM()
	default:
		bytes = ZMM()
	}
	x = bytes
	VPMOVM2B(stack[0].k, bytes)
	zero := K()
	VPTESTNMQ(x, x, zero)
	XORQ(acc, acc)
	KORTESTB(zero, zero)
	SETNE(acc.As8())
	return acc
}
