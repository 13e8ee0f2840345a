// Command blocked generates the cache-line-blocked filter's batch kernels,
// asm.blocked{Test,Add}Hashes{AVX2,AVX512}, twins of
// asm.blockedTestHashesGeneric and asm.blockedAddHashesGeneric, their
// grouped forms for k <= 8 (group.go), the multi-filter and strided tests
// (multi.go, stride.go) and the single-key kernels (key.go). The scheme
// is documented in asm/blocked.go; its constants (asm.BlockedMul,
// asm.BlockedShift) come from the library, so the kernels cannot drift
// from the Go probes.
//
// In the key-at-a-time kernels the line index comes from a scalar MULX
// (multiply-high by the line count) and g = h*BlockedMul from a scalar
// IMUL; g is broadcast to every lane, shifted right by 58-6w in lane w,
// masked to 6 bits, and used as a variable left shift of 1: one bit per
// 64-bit word. The whole mask (two YMM or one ZMM) is then ANDed-NOT with
// the line for a test, or ORed into it for an add. A key needs one round
// per eight probes; k = 8 has its own loop without the round counter,
// and k < 8 (one partial round) its own loops that take the window from a
// table row (oneLoops).
// Over large filters the caller passes a prefetch distance: the kernel
// issues PREFETCHT0 for the line of the key that many places ahead, and
// hs may run past the keys (the next chunk's first hashes) so that the
// last keys of a chunk prefetch too.
package main

// purego: asm's Go half builds without the stubs this command rewrites.
//go:generate go run -tags purego . -out ../../asm/blocked_amd64.s -stubs ../../asm/blocked_stub_amd64.go -pkg asm
// The bench module's anchor times the grouped kernels' least work
// (groupFloorKernels) with -floor.
//go:generate go run -tags purego . -floor -out ../../bench/anchor/floor_group_amd64.s -stubs ../../bench/anchor/floor_group_stub_amd64.go -pkg main

import (
	"flag"
	"fmt"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/gen/internal/genutil"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

var (
	shifts, lanebits, mul, six3, one Mem
	// lshifts is the left shift of word w, 6w, by which (g << 6w) >> 58
	// is word w's bit: no mask constant to load.
	lshifts Mem
)

var floorOnly = flag.Bool("floor", false, "emit only the grouped kernels' floor forms, for the bench module's anchor")

func main() {
	flag.Parse()
	// avo v0.5.0 parses the comma form; it writes "amd64 && gc && !purego".
	ConstraintExpr("amd64,gc,!purego")
	if *floorOnly {
		mul = mulData()
		groupFloorKernels()
		Generate()
		return
	}
	shifts = GLOBL("blockedShifts", RODATA|NOPTR)
	for w := range 8 {
		DATA(8*w, U64(asm.BlockedShift(uint(w))))
	}
	lanebits = GLOBL("blockedLaneBits", RODATA|NOPTR)
	for w := range 8 {
		DATA(8*w, U64(1<<w))
	}
	mul = mulData()
	six3 = GLOBL("blockedSixBits", RODATA|NOPTR)
	DATA(0, U64(63))
	one = GLOBL("blockedOne", RODATA|NOPTR)
	DATA(0, U64(1))
	lshifts = GLOBL("blockedKeyShifts", RODATA|NOPTR)
	for w := range uint(8) {
		DATA(8*int(w), U64(58-asm.BlockedShift(w)))
	}

	for _, isa := range []isa{avx2{}, avx512{}} {
		kernel(isa, true)
		kernel(isa, false)
	}
	for _, isa := range []isa{avx2{}, avx512{}} {
		setKernel(isa)
		setKeyKernel(isa)
		strideKeyKernel(isa)
		strideKernel(isa)
		strideAddKernel(isa)
	}
	groupKernels()
	keyKernels()
	Generate()
}

// mulData defines blockedMul, asm.BlockedMul.
func mulData() Mem {
	m := GLOBL("blockedMul", RODATA|NOPTR)
	DATA(0, U64(asm.BlockedMul))
	return m
}

// isa emits the vector half of a kernel for one instruction set.
type isa interface {
	name() string
	setup()
	// clear zeroes the mask accumulator.
	clear()
	// window sets the mask to the one round of g in the words the
	// blockedTake row at take marks 1.
	window(g reg.Register, take Mem)
	// hit tests the line at p against the mask and reports which flag
	// says it holds the mask: CF (true) or ZF (false).
	hit(p Mem) bool
	// addAt ORs the mask into the line at p.
	addAt(p Mem)
	// round ORs the bits of g (all eight words, or the enabled ones if
	// enable is not nil) into the mask.
	round(g reg.Register, enable reg.Register)
	// test sets ZF when the line at p holds the whole mask.
	test(p reg.Register)
	// add ORs the mask into the line at p.
	add(p reg.Register)
	// prepare readies the mask for holds, which sets CF when the line
	// at p holds the whole mask (the multi-filter tests, multi.go);
	// holds8 is holds for the mask of k = 8, one bit in every word.
	prepare()
	holds(p Mem)
	holds8(p Mem)
	// setMask and anyHolds are the strided test's (stride.go).
	setMask(g, enable reg.Register)
	anyHolds(addrs []Mem) reg.GPVirtual
}

// gp holds the scalar state of a kernel.
type gp struct {
	words, hp, outp, n, hits, k, dist, rem2 reg.Register
	// scale, when set, is the bytes from one line of the filter to the
	// next (the strided layout's gens*64); unset, lines are adjacent.
	scale reg.Register
	// lim, when set, is the number of keys left below which the kernel
	// stops prefetching; unset, dist.
	lim reg.Register
	// take, when set, is &blockedTake[k&7] for a k below 8: the key's
	// mask is its one partial round, the row's words shifted by its bits
	// (isa.window).
	take reg.Register
}

func kernel(v isa, test bool) {
	op := "Add"
	sig := "func(words []uint64, hs []uint64, n int, k uint32, dist int)"
	keys := "the first n hashes of hs"
	if test {
		op = "Test"
		sig = "func(words []uint64, hs []uint64, out []bool, k uint32, dist int) int"
		keys = "the first len(out) hashes of hs"
	}
	name := fmt.Sprintf("blocked%sHashes%s", op, v.name())
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	Doc(fmt.Sprintf("%s is blocked%sHashesGeneric over %s; dist > 0 prefetches the line of the key dist places ahead, as far as hs reaches.", name, op, keys))
	var s gp
	s.words = Load(Param("words").Base(), GP64())
	lines := Load(Param("words").Len(), reg.RDX)
	SHRQ(U8(3), lines) // MULX multiplies by RDX: the line count stays there.
	s.hp = Load(Param("hs").Base(), GP64())
	if test {
		s.n = Load(Param("out").Len(), GP64())
		s.outp = Load(Param("out").Base(), GP64())
		s.hits = GP64()
		XORQ(s.hits, s.hits)
	} else {
		s.n = Load(Param("n"), GP64())
	}
	s.k = Load(Param("k"), GP64())
	s.dist = Load(Param("dist"), GP64())
	// The hashes past the keys are there to be prefetched: the key i
	// places from the end prefetches while i > lim = dist - (len(hs) - n),
	// clamped to 0.
	s.lim = GP64()
	zero := GP64()
	XORQ(zero, zero)
	Load(Param("hs").Len(), s.lim)
	SUBQ(s.n, s.lim)
	NEGQ(s.lim)
	ADDQ(s.dist, s.lim)
	CMOVQLT(zero, s.lim)
	// k < 8, p = 1%'s k = 6 among them, is one partial round: its loop
	// takes the mask's window from the row of asm's blockedTake table
	// for k and the key (the single-key kernels' table) instead of
	// computing it, and has no round counter.
	take := takeRows(s.k)
	s.rem2 = splitK(s.k)
	v.setup()

	CMPQ(s.k, U8(0))
	JNE(LabelRef(name + "_k8"))
	oneLoops(v, s, take, name+"_one", name+"_done", test)

	for _, general := range []bool{false, true} {
		loops := fmt.Sprintf("%s_k8", name)
		if general {
			loops = fmt.Sprintf("%s_any", name)
			Label(loops)
		} else {
			// k = 8: one full round and no partial one.
			Label(loops)
			CMPQ(s.k, U8(1))
			JNE(LabelRef(name + "_any"))
			CMPQ(s.rem2, U8(0))
			JNE(LabelRef(name + "_any"))
		}
		keyLoops(v, s, loops, name+"_done", test, general)
	}
	Label(name + "_done")
	VZEROUPPER()
	if test {
		Store(s.hits, ReturnIndex(0))
	}
	RET()
}

// body processes the key at hp and advances hp, outp and n.
func body(v isa, s gp, test, general, prefetch bool) {
	if prefetch {
		ph, plo, pline := GP64(), GP64(), GP64()
		MOVQ(Mem{Base: s.hp, Index: s.dist, Scale: 8}, ph)
		MULXQ(ph, plo, pline)
		s.lineBytes(pline)
		PREFETCHT0(Mem{Base: s.words, Index: pline, Scale: 1})
	}
	h, lo, line := GP64(), GP64(), GP64()
	MOVQ(Mem{Base: s.hp}, h)
	MULXQ(h, lo, line)
	s.lineBytes(line)
	ADDQ(s.words, line)
	g := GP64()
	MOVQ(h, g)
	IMULQ(mul, g)
	if s.take != nil {
		// The row of the key's window: (g >> 13) & 7, 64 bytes a row.
		row := GP64()
		MOVQ(g, row)
		SHRQ(U8(13-6), row)
		ANDQ(U32(7<<6), row)
		v.window(g, Mem{Base: s.take, Index: row, Scale: 1})
	} else {
		v.clear()
	}
	switch {
	case s.take != nil:
	case !general:
		v.round(g, nil)
	default:
		maskRounds(v, h, g, s.k, s.rem2)
	}
	if test {
		v.test(line)
		b := GP8()
		SETEQ(b)
		MOVB(b, Mem{Base: s.outp})
		t := GP64()
		MOVBQZX(b, t)
		ADDQ(t, s.hits)
		INCQ(s.outp)
	} else {
		v.add(line)
	}
	ADDQ(U8(8), s.hp)
	DECQ(s.n)
}

// lineBytes turns the line index in r into its byte offset.
func (s gp) lineBytes(r reg.Register) {
	if s.scale != nil {
		IMULQ(s.scale, r)
	} else {
		SHLQ(U8(6), r)
	}
}

// splitK turns k, in place, into its full rounds k/8 and returns
// rem2 = ((1 << (k%8)) - 1) * 0x101: the partial round's enabled words,
// doubled so a shift left by s and right by 8 rotates them.
func splitK(k reg.Register) reg.GPVirtual {
	rem2 := GP64()
	MOVQ(k, rem2)
	ANDQ(U8(7), rem2)
	t := GP64()
	MOVQ(U64(1), t)
	SHLXQ(rem2, t, rem2)
	DECQ(rem2)
	IMUL3Q(U32(0x101), rem2, rem2)
	SHRQ(U8(3), k)
	return rem2
}

// maskRounds ORs into the mask the full rounds (their count in rounds)
// and the partial one (its enabled words, doubled, in rem2) of the key
// with hash h, whose g = h*BlockedMul is in g. rounds and rem2 may be
// registers or stack slots.
func maskRounds(v isa, h, g reg.Register, rounds, rem2 Op) {
	r := GP64()
	MOVQ(rounds, r)
	done := labels.Next("rounds_done")
	loop := labels.Next("round")
	TESTQ(r, r)
	JZ(LabelRef(done))
	Label(loop)
	v.round(g, nil)
	IMULQ(mul, g)
	DECQ(r)
	JNZ(LabelRef(loop))
	Label(done)
	partial := labels.Next("partial_done")
	rem, ok := rem2.(reg.Register)
	if !ok {
		rem = GP64()
		MOVQ(rem2, rem)
	}
	TESTQ(rem, rem)
	JZ(LabelRef(partial))
	// s = (g0 >> 13) & 7, then e = rotl8(enabled words, s).
	e := GP64()
	MOVQ(h, e)
	IMULQ(mul, e)
	SHRQ(U8(13), e)
	ANDQ(U8(7), e)
	SHLXQ(e, rem, e)
	SHRQ(U8(8), e)
	v.round(g, e)
	Label(partial)
}

var labels genutil.Labels

type avx2 struct{}

var y struct {
	sh0, sh1, lb0, lb1, six3, one, m0, m1 reg.VecVirtual
	// ones is all ones, i0 and i1 the mask's complement (prepare).
	ones, i0, i1 reg.VecVirtual
}

func (avx2) name() string { return "AVX2" }

func (avx2) setup() {
	for _, p := range []*reg.VecVirtual{&y.sh0, &y.sh1, &y.lb0, &y.lb1, &y.six3, &y.one, &y.m0, &y.m1, &y.ones, &y.i0, &y.i1} {
		*p = YMM()
	}
	VPCMPEQQ(y.ones, y.ones, y.ones)
	VMOVDQU(shifts, y.sh0)
	VMOVDQU(shifts.Offset(32), y.sh1)
	VMOVDQU(lanebits, y.lb0)
	VMOVDQU(lanebits.Offset(32), y.lb1)
	VPBROADCASTQ(six3, y.six3)
	VPBROADCASTQ(one, y.one)
}

func (avx2) clear() {
	VPXOR(y.m0, y.m0, y.m0)
	VPXOR(y.m1, y.m1, y.m1)
}

func (a avx2) round(g, enable reg.Register) {
	t0, t1 := a.roundBits(g)
	if enable != nil {
		a.enabled(enable, t0, t1, t0, t1)
	}
	VPOR(t0, y.m0, y.m0)
	VPOR(t1, y.m1, y.m1)
}

// roundBits returns the bits one round of g sets, words 0-3 and 4-7.
func (avx2) roundBits(g reg.Register) (t0, t1 reg.VecVirtual) {
	x, gv := XMM(), YMM()
	t0, t1 = YMM(), YMM()
	VMOVQ(g, x)
	VPBROADCASTQ(x, gv)
	VPSRLVQ(y.sh0, gv, t0)
	VPSRLVQ(y.sh1, gv, t1)
	VPAND(y.six3, t0, t0)
	VPAND(y.six3, t1, t1)
	VPSLLVQ(t0, y.one, t0)
	VPSLLVQ(t1, y.one, t1)
	return t0, t1
}

func (avx2) window(g reg.Register, take Mem) {
	x, gv := XMM(), YMM()
	VMOVQ(g, x)
	VPBROADCASTQ(x, gv)
	for i, m := range []reg.VecVirtual{y.m0, y.m1} {
		t, r := YMM(), YMM()
		VPSRLVQ([]reg.VecVirtual{y.sh0, y.sh1}[i], gv, t)
		VPAND(y.six3, t, t)
		VMOVDQU(take.Offset(32*i), r)
		VPSLLVQ(t, r, m)
	}
}

// enabled writes to d0, d1 the words of t0, t1 whose bits are set in
// enable (bits 0..7), the others zero.
func (avx2) enabled(enable reg.Register, t0, t1, d0, d1 reg.VecVirtual) {
	ex, ev, e0, e1 := XMM(), YMM(), YMM(), YMM()
	VMOVQ(enable, ex)
	VPBROADCASTQ(ex, ev)
	VPAND(y.lb0, ev, e0)
	VPAND(y.lb1, ev, e1)
	VPCMPEQQ(y.lb0, e0, e0)
	VPCMPEQQ(y.lb1, e1, e1)
	VPAND(e0, t0, d0)
	VPAND(e1, t1, d1)
}

// hit is test: ZF when the line holds the mask.
func (avx2) hit(p Mem) bool {
	holdsYMM(p, y.m0, y.m1)
	return false
}

func (avx2) addAt(p Mem) { orYMM(p, y.m0, y.m1) }

func (avx2) test(p reg.Register) { holdsYMM(Mem{Base: p}, y.m0, y.m1) }

func (avx2) prepare() {
	VPXOR(y.ones, y.m0, y.i0)
	VPXOR(y.ones, y.m1, y.i1)
}

// holds: the line ORed with the mask's complement is all ones.
func (avx2) holds(p Mem) {
	t0, t1 := YMM(), YMM()
	VPOR(p, y.i0, t0)
	VPOR(p.Offset(32), y.i1, t1)
	VPAND(t0, t1, t0)
	VPTEST(y.ones, t0)
}

// holds8 is holds: the complement costs no more for one bit per word.
func (a avx2) holds8(p Mem) { a.holds(p) }

func (avx2) add(p reg.Register) { orYMM(Mem{Base: p}, y.m0, y.m1) }

type avx512 struct{}

var z struct {
	sh, six3, one, m reg.VecVirtual
}

func (avx512) name() string { return "AVX512" }

func (avx512) setup() {
	z.sh, z.six3, z.one, z.m = ZMM(), ZMM(), ZMM(), ZMM()
	VMOVDQU64(shifts, z.sh)
	VPBROADCASTQ(six3, z.six3)
	VPBROADCASTQ(one, z.one)
}

func (avx512) clear() { VPXORQ(z.m, z.m, z.m) }

func (avx512) round(g, enable reg.Register) {
	gv, t := ZMM(), ZMM()
	VPBROADCASTQ(g, gv)
	VPSRLVQ(z.sh, gv, t)
	VPANDQ(z.six3, t, t)
	if enable != nil {
		k := K()
		KMOVB(enable.(reg.GPVirtual).As32(), k)
		VPSLLVQ_Z(t, z.one, k, t)
	} else {
		VPSLLVQ(t, z.one, t)
	}
	VPORQ(t, z.m, z.m)
}

// window rotates the row's words (0 or 1) by the bits: a rotate takes
// its count modulo 64, so the bits need no mask.
func (avx512) window(g reg.Register, take Mem) {
	gv, t, r := ZMM(), ZMM(), ZMM()
	VPBROADCASTQ(g, gv)
	VPSRLVQ(z.sh, gv, t)
	VMOVDQU64(take, r)
	VPROLVQ(t, r, z.m)
}

// hit: the line ANDed with the mask equals it in every word (the line
// read by the AND itself), CF from KORTESTB of the eight equal words.
func (avx512) hit(p Mem) bool {
	t, k := ZMM(), K()
	VPANDQ(p, z.m, t)
	VPCMPEQQ(z.m, t, k)
	KORTESTB(k, k)
	return true
}

func (avx512) addAt(p Mem) {
	VPORQ(p, z.m, z.m)
	VMOVDQU64(z.m, p)
}

func (avx512) test(p reg.Register) {
	l, k := ZMM(), K()
	VMOVDQU64(Mem{Base: p}, l)
	VPANDNQ(z.m, l, l)
	VPTESTMQ(l, l, k)
	KORTESTB(k, k)
}

func (avx512) prepare() {}

// holds: the line ANDed with the mask equals the mask in all eight words.
func (avx512) holds(p Mem) {
	t, k := ZMM(), K()
	VPANDQ(p, z.m, t)
	VPCMPEQQ(z.m, t, k)
	KORTESTB(k, k)
}

// holds8: one bit per word, so the line holds the mask when every word
// ANDed with it is not zero.
func (avx512) holds8(p Mem) {
	k := K()
	VPTESTMQ(p, z.m, k)
	KORTESTB(k, k)
}

func (avx512) add(p reg.Register) {
	VPORQ(Mem{Base: p}, z.m, z.m)
	VMOVDQU64(z.m, Mem{Base: p})
}

// oneLoops emits the key loops of a k below 8, whose mask is one
// partial round taken from the blockedTake row at take (isa.window): the
// keys are indexed from 0, the first n - lim of them prefetching the
// line of the key dist places ahead, the rest not; then it jumps to done.
func oneLoops(v isa, s gp, take reg.Register, loops, done string, test bool) {
	i, pre := GP64(), GP64()
	XORQ(i, i)
	MOVQ(s.n, pre)
	SUBQ(s.lim, pre)
	zero := GP64()
	XORQ(zero, zero)
	TESTQ(s.dist, s.dist)
	CMOVQEQ(zero, pre)
	JMP(LabelRef(loops + "_check_prefetch"))
	Label(loops + "_prefetch")
	ph, plo, pline := GP64(), GP64(), GP64()
	LEAQ(Mem{Base: i, Index: s.dist, Scale: 1}, ph)
	MOVQ(Mem{Base: s.hp, Index: ph, Scale: 8}, ph)
	MULXQ(ph, plo, pline)
	SHLQ(U8(6), pline)
	PREFETCHT0(Mem{Base: s.words, Index: pline, Scale: 1})
	oneKey(v, s, take, i, test)
	Label(loops + "_check_prefetch")
	CMPQ(i, pre) // pre < 0 when fewer than lim keys: signed
	JL(LabelRef(loops + "_prefetch"))
	JMP(LabelRef(loops + "_check_plain"))
	Label(loops + "_plain")
	oneKey(v, s, take, i, test)
	Label(loops + "_check_plain")
	CMPQ(i, s.n)
	JB(LabelRef(loops + "_plain"))
	JMP(LabelRef(done))
}

// oneKey tests or adds key i of a oneLoops loop and increments i.
func oneKey(v isa, s gp, take, i reg.Register, test bool) {
	h, lo, line := GP64(), GP64(), GP64()
	MOVQ(Mem{Base: s.hp, Index: i, Scale: 8}, h)
	MULXQ(h, lo, line)
	SHLQ(U8(6), line)
	g := h
	IMULQ(mul, g)
	row := GP64()
	MOVQ(g, row)
	SHRQ(U8(13-6), row)
	ANDQ(U32(7<<6), row)
	v.window(g, Mem{Base: take, Index: row, Scale: 1})
	at := Mem{Base: s.words, Index: line, Scale: 1}
	if !test {
		v.addAt(at)
		INCQ(i)
		return
	}
	b := GP8()
	if v.hit(at) {
		SETCS(b)
		MOVB(b, Mem{Base: s.outp, Index: i, Scale: 1})
		ADCQ(U8(0), s.hits)
	} else {
		SETEQ(b)
		MOVB(b, Mem{Base: s.outp, Index: i, Scale: 1})
		t := GP64()
		MOVBQZX(b, t)
		ADDQ(t, s.hits)
	}
	INCQ(i)
}

// keyLoops emits a kernel's two key loops under the labels loops+"_prefetch"
// and loops+"_plain": body with the prefetch of the key dist ahead while
// more than dist keys remain (skipped when dist is 0), then body without
// it until no key remains, when it jumps to done.
func keyLoops(v isa, s gp, loops, done string, test, general bool) {
	TESTQ(s.dist, s.dist)
	JZ(LabelRef(loops + "_plain"))
	Label(loops + "_prefetch")
	lim := s.lim
	if lim == nil {
		lim = s.dist
	}
	CMPQ(s.n, lim)
	JLE(LabelRef(loops + "_plain"))
	body(v, s, test, general, true)
	JMP(LabelRef(loops + "_prefetch"))
	Label(loops + "_plain")
	TESTQ(s.n, s.n)
	JZ(LabelRef(done))
	body(v, s, test, general, false)
	JMP(LabelRef(loops + "_plain"))
}

// holdsYMM loads the line at p into two YMM halves and sets ZF when it
// holds every bit of the mask m0 (words 0-3), m1 (words 4-7); it returns
// the halves, for a caller that then sets the mask.
func holdsYMM(p Mem, m0, m1 reg.VecVirtual) (l0, l1 reg.VecVirtual) {
	l0, l1 = YMM(), YMM()
	VMOVDQU(p, l0)
	VMOVDQU(p.Offset(32), l1)
	d0, d1 := YMM(), YMM()
	VPANDN(m0, l0, d0)
	VPANDN(m1, l1, d1)
	VPOR(d0, d1, d0)
	VPTEST(d0, d0)
	return l0, l1
}

// orYMM ORs the mask m0, m1 into the line at p.
func orYMM(p Mem, m0, m1 reg.VecVirtual) {
	VPOR(p, m0, m0)
	VPOR(p.Offset(32), m1, m1)
	VMOVDQU(m0, p)
	VMOVDQU(m1, p.Offset(32))
}

// takeRows returns a new register holding &blockedTake[k&7], the rows of
// the last round's window for k probes (asm's table, one row per s).
func takeRows(k reg.Register) reg.GPVirtual {
	take, base := GP64(), GP64()
	MOVQ(k, take)
	ANDQ(U8(7), take)
	SHLQ(U8(9), take)
	LEAQ(Mem{Symbol: Symbol{Name: "·blockedTake"}, Base: reg.StaticBase}, base)
	ADDQ(base, take)
	return take
}
