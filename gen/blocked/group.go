package main

import (
	"fmt"
	"math/bits"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/gen/hash/xxh3"
	"github.com/filterengine/filterengine/gen/internal/genutil"
)

// groupAhead is how many groups of eight keys ahead of the group it
// probes a grouped kernel prepares (hashes, lines, counts); one group
// less is how far ahead it prefetches.
const groupAhead = asm.BlockedGroupAhead

// groupSlots is the ring of prepared groups, the least power of two
// above groupAhead (a slot's index is a mask of the group's). A slot is
// slotBytes: eight line offsets at 0 and eight count bytes per key at 64.
var groupSlots = 1 << bits.Len(groupAhead)

const slotBytes = 128

// groupKernels emits asm.blocked{Test,Add}{Uint64s,Groups}{AVX2,AVX512,AVX512VBMI}:
// the batch test and add of 8-byte keys (hashed in the kernel) and of
// hashes for a filter with k <= 8 and fewer than 2^32 lines, eight keys
// at a time. Per group the scalar work of the key-at-a-time kernels is
// done in vector registers: the keys' XXH3, the line index as the high
// word of h*lines from two 32x32 products (lines < 2^32 makes the high
// half of lines zero), g = h*BlockedMul, and from g a count byte per word
// of each key (cutFields, or VPMULTISHIFTQB with AVX-512 VBMI; 0xff in
// the words outside its window).
// A group is prepared groupAhead groups before it is probed, into a
// ring of slots on the stack, so no load waits on the store before it,
// and the lines of the group prepared a round earlier are prefetched one
// per key, into L2 or L1 as the caller chooses, while the current group
// is probed. Each key then costs the
// widening of its counts and the line's shifted test or OR; a test collects
// the eight answers as bits and writes them as eight bytes at once.
func groupKernels() {
	for _, v := range []groupISA{&groupAVX2{}, &groupAVX512{}, &groupAVX512{vbmi: true}} {
		for _, hashed := range []bool{false, true} {
			groupKernel(v, true, hashed, false)
			groupKernel(v, false, hashed, false)
		}
	}
}

// groupFloorKernels emits blocked{Test,Add}Uint64sFloor{AVX2,AVX512}
// for the bench module's anchor: the grouped kernels of keys with only
// the work no batch of this layout can skip at the level. Each key is
// hashed (XXH3, the library's hash), its line found by the cheaper
// (hi(h) * lines) >> 32, its window found as the kernels find it, and
// its 512-bit line loaded and tested or ORed with a variable shift per
// word; but the fields are the low six bits of the hash's own bytes,
// with no g = h*BlockedMul and nothing to cut. (A layout that took its
// fields from h would first have to move them clear of the high bits
// the line depends on; the floor leaves out even that.) The bits are
// not the library's, so neither are the answers; the time is a floor
// under any kernel that hashes, finds and probes a line as these do.
func groupFloorKernels() {
	// The VBMI form differs only in the work a floor skips.
	for _, v := range []groupISA{&groupAVX2{}, &groupAVX512{}} {
		groupKernel(v, true, false, true)
		groupKernel(v, false, false, true)
	}
}

// groupParams is a grouped kernel's scalar state.
type groupParams struct {
	words, lines, k, keys reg.Register
	hashed, test          bool
	floor                 bool         // see groupFloorKernels
	seedKey               reg.Register // hashing.Uint64Key(seed), for keys
}

// groupISA is the vector half of a grouped kernel.
type groupISA interface {
	name() string
	setup(p groupParams)
	// prepare fills slot from the group of eight keys (or hashes) at
	// keys.
	prepare(p groupParams, keys, slot Mem)
	// probe tests (p.test: setting CF when the line holds the key) or
	// adds key j of the group whose slot is slot.
	probe(p groupParams, j int, slot Mem)
}

// groupKernel emits one grouped kernel: of keys (hashed here) or of
// hashes; a test or an add. The keys' form takes n = len(ks) keys; the
// hashes' form takes n = len(out) (test) or n (add) of hs, and prepares
// and prefetches groups past them as far as hs holds whole groups (the
// next chunk's first hashes, as the key-at-a-time kernels do).
func groupKernel(v groupISA, test, hashed, floor bool) {
	op, form := "Add", "Uint64s"
	if test {
		op = "Test"
	}
	in, what := "ks", "the hashes of ks (key is hashing.Uint64Key(seed))"
	var sig string
	switch {
	case hashed && test:
		form, in, what = "Groups", "hs", "the first len(out) hashes of hs"
		sig = "func(words []uint64, hs []uint64, out []bool, k uint32, pf int) int"
	case hashed:
		form, in, what = "Groups", "hs", "the first n hashes of hs"
		sig = "func(words []uint64, hs []uint64, n int, k uint32, pf int)"
	case test:
		sig = "func(words []uint64, ks []uint64, out []bool, k uint32, key uint64, pf int) int"
	default:
		sig = "func(words []uint64, ks []uint64, k uint32, key uint64, pf int)"
	}
	name := fmt.Sprintf("blocked%s%s%s", op, form, v.name())
	doc := fmt.Sprintf("%s is blocked%sHashesGeneric of %s for k <= 8, fewer than 2^32 lines and a multiple of 8 keys; pf is 0 (no prefetch), BlockedFarL2 or BlockedFarL1 (see groupKernels in gen/blocked).", name, op, what)
	if floor {
		name = fmt.Sprintf("blocked%s%sFloor%s", op, form, v.name())
		doc = fmt.Sprintf("%s is the floor of blocked%s%s%s: the same loop with the least work on a key's bits (see groupFloorKernels in gen/blocked); pf as there.", name, op, form, v.name())
	}
	TEXT(name, 0, sig)
	Pragma("noescape")
	Doc(doc)
	p := groupParams{hashed: hashed, test: test, floor: floor}
	p.words = Load(Param("words").Base(), GP64())
	p.lines = Load(Param("words").Len(), GP64())
	SHRQ(U8(3), p.lines)
	p.keys = Load(Param(in).Base(), GP64())
	// n keys are answered; groups below lim are prepared and prefetched.
	n, lim := GP64(), GP64()
	Load(Param(in).Len(), lim)
	ANDQ(I8(-8), lim)
	switch {
	case test:
		Load(Param("out").Len(), n)
	case hashed:
		Load(Param("n"), n)
	default:
		MOVQ(lim, n)
	}
	p.k = Load(Param("k"), GP64())
	if !hashed {
		p.seedKey = Load(Param("key"), GP64())
	}
	v.setup(p)

	// The ring's slots are offsets from its start, each advanced a slot
	// per group and wrapped by a mask.
	ring := AllocLocal(groupSlots * slotBytes)
	slotAt := func(off reg.Register) Mem { return ring.Idx(off, 1) }
	next := func(off reg.Register) {
		SUBQ(I8(-slotBytes), off) // adds 128 with a one-byte immediate
		ANDQ(U32(groupSlots*slotBytes-1), off)
	}
	keysAt := func(i reg.Register, disp int) Mem {
		return Mem{Base: p.keys, Index: i, Scale: 8, Disp: disp}
	}

	// Prologue: prepare the first groupAhead groups, as many as there
	// are, into the slots from 0.
	i, prep := GP64(), GP64()
	XORQ(i, i)
	XORQ(prep, prep)
	Label(name + "_first")
	CMPQ(i, lim)
	JAE(LabelRef(name + "_loop"))
	CMPQ(i, U32(8*groupAhead))
	JAE(LabelRef(name + "_loop"))
	v.prepare(p, keysAt(i, 0), slotAt(prep))
	ADDQ(U8(8), i)
	next(prep)
	JMP(LabelRef(name + "_first"))

	// The main loop runs while the group groupAhead on is whole in the
	// keys: below end = min(n, lim - 8*groupAhead) (signed: lim may be
	// smaller), it prepares that group and prefetches the lines of the
	// one before it, prepared a round ago. The groups from end to n, all
	// prepared already, are probed by the tail, without a prefetch.
	Label(name + "_loop")
	end := GP64()
	MOVQ(lim, end)
	SUBQ(U32(8*groupAhead), end)
	CMPQ(end, n)
	CMOVQGT(n, end)
	// prep already holds the slot of group groupAhead wherever the main
	// loop runs: there the prologue prepared all groupAhead groups.
	cur, ahead := GP64(), GP64()
	XORQ(i, i)
	XORQ(cur, cur)
	MOVQ(U32((groupAhead-1)*slotBytes), ahead)
	var outp, hits reg.Register
	if test {
		outp = Load(Param("out").Base(), GP64())
		hits = GP64()
		XORQ(hits, hits)
	}
	// probeGroup probes the group at cur, prefetching the lines of the
	// group at ahead (nil: none), and writes a test's answers.
	probeGroup := func(ahead reg.Register, intoL1 bool) {
		var acc reg.Register
		if test {
			acc = GP64()
		}
		for j := range 8 {
			if ahead != nil {
				pr := GP64()
				MOVQ(slotAt(ahead).Offset(8*j), pr)
				genutil.PrefetchFar(Mem{Base: p.words, Index: pr, Scale: 1}, intoL1)
			}
			v.probe(p, j, slotAt(cur))
			if test {
				ADCQ(acc, acc) // acc = 2*acc + CF: key 0 ends in bit 7
			}
		}
		if test {
			// Bit 7-j of acc is key j's answer (the bits above are the
			// previous group's, which PDEP drops): one byte per bit,
			// then the bytes reversed, puts key j's in byte j.
			PDEPQ(byteBits(), acc, acc)
			cnt := GP64()
			POPCNTQ(acc, cnt)
			ADDQ(cnt, hits)
			BSWAPQ(acc)
			MOVQ(acc, Mem{Base: outp, Index: i, Scale: 1})
		}
		next(cur)
		ADDQ(U8(8), i)
	}

	// Three main loops, as pf chooses: the prefetches into L2, into L1
	// (genutil.PrefetchFar), or none, below the prefetch size (asm's
	// prefetchBytes), where they only add work.
	mode := Load(Param("pf"), GP64())
	CMPQ(mode, U8(asm.BlockedFarL1))
	JE(LabelRef(name + "_l1"))
	TESTQ(mode, mode)
	JZ(LabelRef(name + "_nopf"))
	for _, loop := range []struct {
		suffix           string
		prefetch, intoL1 bool
	}{{"", true, false}, {"_l1", true, true}, {"_nopf", false, false}} {
		l := name + loop.suffix
		if loop.suffix != "" {
			Label(l)
		}
		CMPQ(i, end)
		JGE(LabelRef(name + "_tail"))
		Label(l + "_group")
		v.prepare(p, keysAt(i, 64*groupAhead), slotAt(prep))
		next(prep)
		if loop.prefetch {
			probeGroup(ahead, loop.intoL1)
			next(ahead)
		} else {
			probeGroup(nil, false)
		}
		CMPQ(i, end)
		JL(LabelRef(l + "_group"))
		if loop.suffix != "_nopf" {
			JMP(LabelRef(name + "_tail"))
		}
	}

	Label(name + "_tail")
	CMPQ(i, n)
	JAE(LabelRef(name + "_done"))
	probeGroup(nil, false)
	JMP(LabelRef(name + "_tail"))

	Label(name + "_done")
	VZEROUPPER()
	if test {
		Store(hits, ReturnIndex(0))
	}
	RET()
}

// bytes is blockedByteBits once byteBits has defined it.
var bytes Mem

// byteBits returns blockedByteBits, the low bit of every byte (PDEP's
// mask that spreads eight bits to eight bytes), defining it on the first
// call.
func byteBits() Mem {
	if bytes.Symbol.Name == "" {
		bytes = GLOBL("blockedByteBits", RODATA|NOPTR)
		DATA(0, U64(0x0101010101010101))
	}
	return bytes
}

// lineOffsets sets o to the byte offsets of the lines of the hashes in
// h, given lines (< 2^32) in every lane of zl. new makes a scratch
// register.
func lineOffsets(zl, h, o reg.VecVirtual, new func() reg.VecVirtual) {
	genutil.ReduceLanes(zl, h, o, new())
	VPSLLQ(U8(6), o, o)
}

// floorOffsets sets o to the byte offsets of lines (hi(h) * lines) >> 32
// of the hashes in h, given lines (< 2^32) in every lane of zl: the
// line of groupFloorKernels, one product where lineOffsets has two.
func floorOffsets(zl, h, o reg.VecVirtual) {
	VPSRLQ(U8(32), h, o)
	VPMULUDQ(zl, o, o)
	VPSRLQ(U8(32), o, o)
	VPSLLQ(U8(6), o, o)
}

// groupAVX512 probes a key with one ZMM register from eight count bytes
// its slot holds, one per word, cut from g (eight keys at once) and
// XORed with the key's window row: 0x3f in the words of the window,
// which makes a count 63 - bit, and 0xff outside it, which makes it 0xc0
// or more, a shift to nothing. The row is entry (g >> 13) & 7 of the
// k%8 table, picked by one VPERMQ. The cut is cutFields' five
// instructions, whose two halves one three-way XOR joins with the row;
// with vbmi (AVX-512 VBMI, asm runs these kernels where the CPU has it)
// one VPMULTISHIFTQB copies the eight bits of g from bit 58 - 6w into
// byte w, and one VPTERNLOGQ keeps their low six and applies the row.
// VPMOVZXBQ widens a key's counts to its variable shifts: an add ORs
// 2^63 >> count into each word; a test shifts the complement of each
// word left by count, so a missing bit lands in the word's sign, and
// VPTESTNMQ with the signs makes the lane mask whose KORTESTB carry is
// the answer.
type groupAVX512 struct {
	vbmi         bool
	c            xxh3.AVX512
	zl, zm, zwin reg.VecVirtual
	zsign, zones reg.VecVirtual
	zcut         [cutLowMul/32 + 1]reg.VecVirtual // without vbmi
	zshift, zsix reg.VecVirtual                   // with vbmi
}

func (v *groupAVX512) name() string {
	if v.vbmi {
		return "AVX512VBMI"
	}
	return "AVX512"
}

// wintab is blockedWindowCounts once windowCounts has defined it.
var wintab Mem

// windowCounts returns blockedWindowCounts, defining it on the first
// call: row k%8, entry s, 0x3f in the bytes of the words asm's
// blockedTake row s marks and 0xff in the others.
func windowCounts() Mem {
	if wintab.Symbol.Name == "" {
		wintab = GLOBL("blockedWindowCounts", RODATA|NOPTR)
		for r := range uint32(8) {
			_, take := asm.BlockedRows(r)
			for s, row := range take {
				var win uint64
				for w, t := range row {
					b := uint64(0xff)
					if t != 0 {
						b = 0x3f
					}
					win |= b << (8 * w)
				}
				DATA(64*int(r)+8*s, U64(win))
			}
		}
	}
	return wintab
}

func (v *groupAVX512) setup(p groupParams) {
	if !p.hashed {
		v.c = xxh3.NewAVX512(p.seedKey)
	}
	v.zl, v.zm, v.zwin, v.zsign = ZMM(), ZMM(), ZMM(), ZMM()
	VPBROADCASTQ(p.lines, v.zl)
	VPBROADCASTQ(mul, v.zm)
	sign := GP64()
	MOVQ(U64(1<<63), sign)
	VPBROADCASTQ(sign, v.zsign)
	if p.test {
		v.zones = ZMM()
		VPTERNLOGQ(U8(0xff), v.zones, v.zones, v.zones)
	}
	cut := cutTable()
	if v.vbmi || p.floor {
		v.zshift, v.zsix = ZMM(), ZMM()
		VBROADCASTI64X4(cut.Offset(cutShifts), v.zshift)
		VBROADCASTI64X4(cut.Offset(cutSix), v.zsix)
	} else {
		for i := range v.zcut {
			v.zcut[i] = ZMM()
			VBROADCASTI64X4(cut.Offset(32*i), v.zcut[i])
		}
	}
	row := GP64()
	MOVQ(p.k, row)
	ANDQ(U8(7), row)
	SHLQ(U8(6), row)
	wp := GP64()
	LEAQ(windowCounts(), wp)
	VMOVDQU64(Mem{Base: wp, Index: row, Scale: 1}, v.zwin)
}

func (v *groupAVX512) prepare(p groupParams, keys, slot Mem) {
	h, o, t, w := ZMM(), ZMM(), ZMM(), ZMM()
	VMOVDQU64(keys, h)
	if !p.hashed {
		v.c.Hash(h, ZMM(), ZMM())
	}
	if p.floor {
		floorOffsets(v.zl, h, o)
	} else {
		lineOffsets(v.zl, h, o, ZMM)
	}
	VMOVDQU64(o, slot)
	if !p.floor {
		// g = h*BlockedMul, in h.
		VPMULLQ(v.zm, h, h)
	}
	// The window row, entry (g >> 13) & 7 (VPERMQ reads the low three
	// bits of each index), joined with the fields.
	VPSRLQ(U8(13), h, w)
	VPERMQ(v.zwin, w, w)
	switch {
	case p.floor:
		// The fields are h's bytes: w ^ (h & 0x3f).
		VPTERNLOGQ(U8(0x78), v.zsix, h, w)
	case v.vbmi:
		VPMULTISHIFTQB(h, v.zshift, t)
		// w ^ (t & 0x3f): the fields' low six bits, the row applied.
		VPTERNLOGQ(U8(0x78), v.zsix, t, w)
	default:
		a := ZMM()
		cutFields(func(row int) Op { return v.zcut[row/32] }, func(m, x, d Op) { VPANDQ(m, x, d) }, h, t, a)
		// The fields of a and t are in different bytes, so one
		// three-way XOR merges them and applies the row.
		VPTERNLOGQ(U8(0x96), a, t, w)
	}
	VMOVDQU64(w, slot.Offset(64))
}

func (v *groupAVX512) probe(p groupParams, j int, slot Mem) {
	r := GP64()
	MOVQ(slot.Offset(8*j), r)
	line := Mem{Base: p.words, Index: r, Scale: 1}
	c := ZMM()
	VPMOVZXBQ(slot.Offset(64+8*j), c)
	if p.test {
		n, held := ZMM(), K()
		VPXORQ(line, v.zones, n)
		VPSLLVQ(c, n, n)
		VPTESTNMQ(v.zsign, n, held)
		KORTESTB(held, held) // CF: no lane lost its sign, every bit held
	} else {
		VPSRLVQ(c, v.zsign, c)
		VPORQ(line, c, c)
		VMOVDQU64(c, line)
	}
}

// groupAVX2 probes a key in two YMM halves from eight count bytes its
// slot holds, one per word, cut from the top 48 bits of the group's g in
// prepare by cutFields, and 0xff in the words outside the key's window, so
// that a count of 64 or more shifts a word's part to nothing. VPMOVZXBQ
// widens four counts to a half's variable shifts. An add ORs 1 << bit
// into each word; a test shifts the complement of each word left by
// 63 - bit (the field of ^g), which puts a missing bit in the word's
// sign, and VMOVMSKPD reads the eight signs, ORed in pairs, at once.
// g = h*BlockedMul comes from genutil.MulLanes.
type groupAVX2 struct {
	c                 xxh3.AVX2
	lit, zl           reg.VecVirtual
	thr, winc         reg.VecVirtual
	mulLo, mulSw, cut Mem
	floors            Mem
}

func (*groupAVX2) name() string { return "AVX2" }

// The rows of blockedCut4, 32 bytes each (the same in both 128-bit lanes
// for VPSHUFB): the shuffle that puts bytes (b1, b0, b2, b1) of each
// three-byte run of g (7,6,5 and 4,3,2, most significant first) in a
// dword, the masks and multipliers that move each six-bit field to a
// byte of its own, the shuffle that copies byte 1 of g (s in its top
// three bits) to every byte of its qword, byte w's 32w + 159 for the
// window, 0x3f bytes (a test's 63 - bit, the six bits of a field), and
// byte w's BlockedShift(w), where VPMULTISHIFTQB finds word w's field.
const (
	cutShuffle = 32 * iota
	cutHighMask
	cutHighMul
	cutLowMask
	cutLowMul
	cutByte1
	cutWindow
	cutSix
	cutShifts
	cutRows
)

// cutRow returns the 32 bytes of row r of blockedCut4.
func cutRow(r int) [32]byte {
	var b [32]byte
	dwords := func(v uint32) {
		for i := 0; i < 32; i += 4 {
			b[i], b[i+1], b[i+2], b[i+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		}
	}
	switch r {
	case cutShuffle, cutByte1:
		q := [8]byte{6, 7, 5, 6, 3, 4, 2, 3}
		if r == cutByte1 {
			q = [8]byte{1, 1, 1, 1, 1, 1, 1, 1}
		}
		for i := range b {
			b[i] = q[i%8] + byte(i&8)
		}
	case cutHighMask:
		dwords(0x0fc0fc00)
	case cutHighMul:
		dwords(0x04000040)
	case cutLowMask:
		dwords(0x003f03f0)
	case cutLowMul:
		dwords(0x01000010)
	case cutWindow:
		for i := range b {
			b[i] = byte(32*(i%8) + 159)
		}
	case cutSix:
		for i := range b {
			b[i] = 0x3f
		}
	case cutShifts:
		for i := range b {
			b[i] = byte(asm.BlockedShift(uint(i % 8)))
		}
	}
	return b
}

// cutFields cuts word w's count, (g >> (58 - 6w)) & 63, of every 64-bit
// lane of g into byte w, the even bytes into a and the odd ones into t
// (the other bytes zero, so OR or XOR joins them): each dword holds
// (b1, b0, b2, b1) of a three-byte run after the shuffle; the high
// product by 2^6 and 2^10 brings the fields of b0 and b1:b2 to bytes 0
// and 2, the low product by 2^4 and 2^8 those of b0:b1 and b2 to bytes 1
// and 3. row gives the blockedCut4 row at a cut* offset (a register or
// memory); and is the level's VPAND.
func cutFields(row func(int) Op, and func(m, x, d Op), g, t, a reg.VecVirtual) {
	VPSHUFB(row(cutShuffle), g, t)
	and(row(cutHighMask), t, a)
	VPMULHUW(row(cutHighMul), a, a)
	and(row(cutLowMask), t, t)
	VPMULLW(row(cutLowMul), t, t)
}

// cut is blockedCut4 once cutTable has defined it.
var cut Mem

// cutTable returns blockedCut4, the rows cutRow describes, defining it on
// the first call.
func cutTable() Mem {
	if cut.Symbol.Name == "" {
		cut = GLOBL("blockedCut4", RODATA|NOPTR)
		for r := 0; r < cutRows; r += 32 {
			row := cutRow(r)
			for i, c := range row {
				DATA(r+i, U8(c))
			}
		}
	}
	return cut
}

func (v *groupAVX2) setup(p groupParams) {
	if v.mulLo.Symbol.Name == "" {
		v.mulLo = GLOBL("blockedMulLo4", RODATA|NOPTR)
		for l := range 4 {
			DATA(8*l, U64(asm.BlockedMul))
		}
		v.mulSw = GLOBL("blockedMulSw4", RODATA|NOPTR)
		for l := range 4 {
			DATA(8*l, U64(bits.RotateLeft64(asm.BlockedMul, 32)))
		}
		v.cut = cutTable()
		// Entry k%8: the signed byte above which 32*((w - s) & 7) +
		// 31 - (g >> 8 & 31), plus 128, marks a word outside the
		// window (none for k = 8).
		v.floors = GLOBL("blockedWindowFloors", RODATA|NOPTR)
		for r := range 8 {
			f := int8(127)
			if r > 0 {
				f = int8(32*r - 129)
			}
			DATA(r, U8(uint8(f)))
		}
	}
	if !p.hashed {
		v.c = xxh3.NewAVX2(p.seedKey)
	}
	v.zl = YMM()
	x := XMM()
	VMOVQ(p.lines, x)
	VPBROADCASTQ(x, v.zl)
	v.lit = YMM()
	if p.test {
		// All ones, to complement the line.
		VPCMPEQQ(v.lit, v.lit, v.lit)
	} else {
		// 1 in every word, shifted to the word's bit.
		o := GP64()
		MOVQ(U32(1), o)
		VMOVQ(o, x)
		VPBROADCASTQ(x, v.lit)
	}
	row, base := GP64(), GP64()
	MOVQ(p.k, row)
	ANDQ(U8(7), row)
	LEAQ(v.floors, base)
	v.thr = YMM()
	VPBROADCASTB(Mem{Base: base, Index: row, Scale: 1}, v.thr)
	v.winc = YMM()
	VMOVDQU(v.cut.Offset(cutWindow), v.winc)
}

func (v *groupAVX2) prepare(p groupParams, keys, slot Mem) {
	for half := range 2 {
		h, t, a := YMM(), YMM(), YMM()
		VMOVDQU(keys.Offset(32*half), h)
		if !p.hashed {
			v.c.Hash(h, YMM(), YMM())
		}
		o := YMM()
		if p.floor {
			floorOffsets(v.zl, h, o)
		} else {
			lineOffsets(v.zl, h, o, YMM)
		}
		VMOVDQU(o, slot.Offset(32*half))
		switch {
		case p.floor && p.test:
			// The fields are h's bytes: 63 minus their low six bits.
			VPANDN(v.cut.Offset(cutSix), h, t)
		case p.floor:
			VPAND(v.cut.Offset(cutSix), h, t)
		default:
			// g = h*BlockedMul, in h.
			genutil.MulLanes(v.mulLo, v.mulSw, h, t, a)
			cutFields(func(row int) Op { return v.cut.Offset(row) }, func(m, x, d Op) { VPAND(m, x, d) }, h, t, a)
			VPOR(a, t, t)
			if p.test {
				VPXOR(v.cut.Offset(cutSix), t, t)
			}
		}
		// The window: byte w is 32*((w - s) & 7) + 31 - (g >> 8 & 31)
		// + 128, above the floor exactly when (w - s) & 7 >= k%8.
		VPSHUFB(v.cut.Offset(cutByte1), h, a)
		VPSUBB(a, v.winc, a)
		VPCMPGTB(v.thr, a, a)
		VPOR(a, t, t)
		VMOVDQU(t, slot.Offset(64+32*half))
	}
}

func (v *groupAVX2) probe(p groupParams, j int, slot Mem) {
	r := GP64()
	MOVQ(slot.Offset(8*j), r)
	line := Mem{Base: p.words, Index: r, Scale: 1}
	c0, c1 := YMM(), YMM()
	VPMOVZXBQ(slot.Offset(64+8*j), c0)
	VPMOVZXBQ(slot.Offset(64+8*j+4), c1)
	if p.test {
		n0, n1 := YMM(), YMM()
		VPXOR(line, v.lit, n0)
		VPXOR(line.Offset(32), v.lit, n1)
		VPSLLVQ(c0, n0, n0)
		VPSLLVQ(c1, n1, n1)
		VPOR(n0, n1, n0)
		// The eight signs, ORed in pairs into four bits: NEG sets CF
		// when one is set (a bit is missing), CMC makes CF the answer.
		m := GP32()
		VMOVMSKPD(n0, m)
		NEGL(m)
		CMC()
	} else {
		VPSLLVQ(c0, v.lit, c0)
		VPSLLVQ(c1, v.lit, c1)
		orYMM(line, c0, c1)
	}
}
