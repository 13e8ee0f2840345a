// Command hash generates the batch XXH3 kernels of 8-byte keys,
// asm.hashUint64sAVX2 and asm.hashUint64sAVX512, twins of
// asm.hashUint64sGeneric.
package main

//go:generate go run . -out ../../asm/hash_amd64.s -stubs ../../asm/hash_stub_amd64.go -pkg asm

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/filterengine/filterengine/gen/hash/xxh3"
)

func main() {
	// avo v0.5.0 parses the comma form; it writes "amd64 && gc && !purego".
	ConstraintExpr("amd64,gc,!purego")
	avx2()
	avx512()
	Generate()
}

// avx2 hashes 8 keys per iteration (two YMM of four lanes, interleaved for
// the multiplier's latency) and then one block of 4; len(ks) must be a
// multiple of 4, the caller hashes the tail.
func avx2() {
	TEXT("hashUint64sAVX2", NOSPLIT, "func(dst, ks []uint64, key uint64)")
	Pragma("noescape")
	Doc("hashUint64sAVX2 is hashUint64sGeneric for len(ks) a multiple of 4.")
	dst := Load(Param("dst").Base(), GP64())
	src := Load(Param("ks").Base(), GP64())
	n := Load(Param("ks").Len(), GP64())
	key := Load(Param("key"), GP64())
	c := xxh3.NewAVX2(key)
	a, b := YMM(), YMM()
	t := [4]reg.VecVirtual{YMM(), YMM(), YMM(), YMM()}

	Label("loop8")
	CMPQ(n, U8(8))
	JB(LabelRef("tail4"))
	VMOVDQU(Mem{Base: src}, a)
	VMOVDQU(Mem{Base: src, Disp: 32}, b)
	c.Hash(a, t[0], t[1])
	c.Hash(b, t[2], t[3])
	VMOVDQU(a, Mem{Base: dst})
	VMOVDQU(b, Mem{Base: dst, Disp: 32})
	ADDQ(U8(64), src)
	ADDQ(U8(64), dst)
	SUBQ(U8(8), n)
	JMP(LabelRef("loop8"))

	Label("tail4")
	CMPQ(n, U8(4))
	JB(LabelRef("done"))
	VMOVDQU(Mem{Base: src}, a)
	c.Hash(a, t[0], t[1])
	VMOVDQU(a, Mem{Base: dst})

	Label("done")
	VZEROUPPER()
	RET()
}

// avx512 hashes 16 keys per iteration (two ZMM) and then one block of 8;
// len(ks) must be a multiple of 8.
func avx512() {
	TEXT("hashUint64sAVX512", NOSPLIT, "func(dst, ks []uint64, key uint64)")
	Pragma("noescape")
	Doc("hashUint64sAVX512 is hashUint64sGeneric for len(ks) a multiple of 8.")
	dst := Load(Param("dst").Base(), GP64())
	src := Load(Param("ks").Base(), GP64())
	n := Load(Param("ks").Len(), GP64())
	key := Load(Param("key"), GP64())
	c := xxh3.NewAVX512(key)
	a, b := ZMM(), ZMM()
	t := [4]reg.VecVirtual{ZMM(), ZMM(), ZMM(), ZMM()}

	Label("loop16")
	CMPQ(n, U8(16))
	JB(LabelRef("tail8"))
	VMOVDQU64(Mem{Base: src}, a)
	VMOVDQU64(Mem{Base: src, Disp: 64}, b)
	c.Hash(a, t[0], t[1])
	c.Hash(b, t[2], t[3])
	VMOVDQU64(a, Mem{Base: dst})
	VMOVDQU64(b, Mem{Base: dst, Disp: 64})
	ADDQ(U32(128), src)
	ADDQ(U32(128), dst)
	SUBQ(U8(16), n)
	JMP(LabelRef("loop16"))

	Label("tail8")
	CMPQ(n, U8(8))
	JB(LabelRef("done"))
	VMOVDQU64(Mem{Base: src}, a)
	c.Hash(a, t[0], t[1])
	VMOVDQU64(a, Mem{Base: dst})

	Label("done")
	VZEROUPPER()
	RET()
}
