// Package xxh3 emits the vector form of XXH3-64 of one 8-byte key (the
// function hashing.HashUint64Keyed) for the avo generators: the batch hash
// kernel in gen/hash and any kernel that fuses hashing with a filter probe.
package xxh3

import (
	"math/bits"

	"github.com/filterengine/filterengine/gen/internal/genutil"
	"github.com/filterengine/filterengine/internal/hashconst"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// RRMXMXMul is XXH3's rrmxmx multiplier, from the library.
const RRMXMXMul = hashconst.XXH3RRMXMXMul

// AVX2 holds the broadcast constants of the AVX2 form.
type AVX2 struct {
	Key   reg.VecVirtual // per-seed key in every lane
	MulLo reg.VecVirtual // RRMXMXMul in every lane (VPMULUDQ reads its low half)
	MulSw reg.VecVirtual // RRMXMXMul with its halves swapped in every lane
	Eight reg.VecVirtual // 8 in every lane
}

// rotl24Table is the VPSHUFB control rotating every 64-bit lane left by
// three bytes, emitted once per generated file.
var rotl24Table Mem

func rotl24() Mem {
	if rotl24Table.Symbol.Name == "" {
		rotl24Table = GLOBL("xxh3Rotl24", RODATA|NOPTR)
		for i := range 32 {
			DATA(i, U8(byte((i+5)%8+i&8)))
		}
	}
	return rotl24Table
}

// mulData holds RRMXMXMul for Scalar's multiplies, emitted once per
// generated file: a multiply by a memory operand takes one instruction
// where a 64-bit constant first needs a MOVQ into a register.
var mulData Mem

func mulMem() Mem {
	if mulData.Symbol.Name == "" {
		mulData = GLOBL("xxh3Mul", RODATA|NOPTR)
		DATA(0, U64(RRMXMXMul))
	}
	return mulData
}

func broadcastYMM(v Op) reg.VecVirtual {
	g := GP64()
	MOVQ(v, g)
	x := XMM()
	VMOVQ(g, x)
	y := YMM()
	VPBROADCASTQ(x, y)
	return y
}

// NewAVX2 broadcasts key (a GP register holding hashing.Uint64Key(seed))
// and the constants into YMM registers.
func NewAVX2(key reg.Register) AVX2 {
	x := XMM()
	VMOVQ(key, x)
	k := YMM()
	VPBROADCASTQ(x, k)
	return AVX2{
		Key:   k,
		MulLo: broadcastYMM(U64(RRMXMXMul)),
		MulSw: broadcastYMM(U64(bits.RotateLeft64(RRMXMXMul, 32))),
		Eight: broadcastYMM(U64(8)),
	}
}

// mul64 sets h = h * RRMXMXMul lane-wise (genutil.MulLanes: AVX2 has no
// 64-bit multiply).
func (c AVX2) mul64(h, t1, t2 reg.VecVirtual) {
	genutil.MulLanes(c.MulLo, c.MulSw, h, t1, t2)
}

// Hash replaces the four keys in k by their hashes, using t1, t2 as
// scratch.
func (c AVX2) Hash(k, t1, t2 reg.VecVirtual) {
	// x = rotl(k, 32) ^ key: swapping the two dwords of each lane.
	VPSHUFD(U8(0xb1), k, k)
	VPXOR(c.Key, k, k)
	// h ^= rotl(h, 49) ^ rotl(h, 24); the two shifted parts of the first
	// rotation are disjoint, so XOR joins them; the second moves whole
	// bytes, one shuffle.
	VPSLLQ(U8(49), k, t1)
	VPSRLQ(U8(15), k, t2)
	VPXOR(t1, t2, t1)
	VPSHUFB(rotl24(), k, t2)
	VPXOR(t1, t2, t1)
	VPXOR(t1, k, k)
	c.mul64(k, t1, t2)
	// h ^= (h >> 35) + 8
	VPSRLQ(U8(35), k, t1)
	VPADDQ(c.Eight, t1, t1)
	VPXOR(t1, k, k)
	c.mul64(k, t1, t2)
	// h ^= h >> 28
	VPSRLQ(U8(28), k, t1)
	VPXOR(t1, k, k)
}

// AVX512 holds the broadcast constants of the AVX-512 form.
type AVX512 struct {
	Key   reg.VecVirtual
	Mul   reg.VecVirtual
	Eight reg.VecVirtual
}

// NewAVX512 broadcasts key (a GP register) and the constants into ZMM
// registers.
func NewAVX512(key reg.Register) AVX512 {
	k := ZMM()
	VPBROADCASTQ(key, k)
	m := GP64()
	MOVQ(U64(RRMXMXMul), m)
	mul := ZMM()
	VPBROADCASTQ(m, mul)
	e := GP64()
	MOVQ(U64(8), e)
	eight := ZMM()
	VPBROADCASTQ(e, eight)
	return AVX512{Key: k, Mul: mul, Eight: eight}
}

// Hash replaces the eight keys in k by their hashes, using t1, t2 as
// scratch. VPMULLQ (AVX-512 DQ) multiplies 64-bit lanes; VPROLQ rotates;
// VPTERNLOGQ 0x96 is a three-way XOR.
func (c AVX512) Hash(k, t1, t2 reg.VecVirtual) {
	VPROLQ(U8(32), k, k)
	VPXORQ(c.Key, k, k)
	VPROLQ(U8(49), k, t1)
	VPROLQ(U8(24), k, t2)
	VPTERNLOGQ(U8(0x96), t1, t2, k)
	VPMULLQ(c.Mul, k, k)
	VPSRLQ(U8(35), k, t1)
	VPADDQ(c.Eight, t1, t1)
	VPXORQ(t1, k, k)
	VPMULLQ(c.Mul, k, k)
	VPSRLQ(U8(28), k, t1)
	VPXORQ(t1, k, k)
}

// Key returns a new register holding hashing.Uint64Key of the seed in
// seed (left as it was): the per-seed key Scalar and the vector forms
// take, for a kernel given the seed itself.
func Key(seed reg.Register) reg.GPVirtual {
	s, t, key := GP64(), GP32(), GP64()
	MOVQ(seed, s)
	MOVL(seed.(reg.GPVirtual).As32(), t)
	BSWAPL(t)
	SHLQ(U8(32), t.As64())
	XORQ(t.As64(), s)
	MOVQ(U64(hashconst.XXH3Secret8to24), key)
	SUBQ(s, key)
	return key
}

// Scalar replaces the 8-byte key in k by its hash, hashing.HashUint64Keyed
// with the per-seed key read from key (a register or memory operand),
// for single-key kernels.
func Scalar(k reg.Register, key Op) { ScalarTo(k, key, k) }

// ScalarTo is Scalar with the hash written to out (k is left a scratch
// value), for a kernel that wants the hash in a given register, as MULX
// wants its factor in RDX: the last step writes out at no cost.
func ScalarTo(k reg.Register, key Op, out reg.Register) {
	ROLQ(U8(32), k)
	XORQ(key, k)
	// rotl(k, 49) ^ rotl(k, 24) by RORX (BMI2, which every level with
	// these kernels has): no copies before the rotates.
	t1, t2 := GP64(), GP64()
	RORXQ(U8(64-49), k, t1)
	RORXQ(U8(64-24), k, t2)
	XORQ(t1, t2)
	XORQ(t2, k)
	IMULQ(mulMem(), k)
	MOVQ(k, t1)
	SHRQ(U8(35), t1)
	ADDQ(U8(8), t1)
	XORQ(t1, k)
	IMULQ(mulMem(), k)
	if out == k {
		MOVQ(k, t1)
		SHRQ(U8(28), t1)
		XORQ(t1, k)
		return
	}
	MOVQ(k, out)
	SHRQ(U8(28), out)
	XORQ(k, out)
}
