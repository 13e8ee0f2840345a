// Command anchorfloor generates the floor loops of the bench module's
// anchor (bench/anchor): the same loads as the blocked batch test, one
// word of each key's line, with the software prefetch the batch kernels
// issue (Go has no prefetch statement), the single-key floor, each
// key hashed and its line found as the single-key kernels do it (a Go
// loop recomputes the per-seed key for every key and rotates without
// RORX), and the load of one key behind a call, each with nothing else.
package main

//go:generate go run . -out ../../bench/anchor/floor_amd64.s -stubs ../../bench/anchor/floor_stub_amd64.go -pkg main

import (
	"github.com/filterengine/filterengine/gen/hash/xxh3"
	"github.com/filterengine/filterengine/gen/internal/genutil"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func main() {
	// avo v0.5.0 parses the comma form; it writes "amd64 && gc && !purego".
	ConstraintExpr("amd64,gc,!purego")
	TEXT("loadsPrefetched", NOSPLIT, "func(words, idx []uint64, ahead int, intoL1 bool) uint64")
	Pragma("noescape")
	Doc("loadsPrefetched returns the sum of words[idx[i]] over idx, prefetching",
		"words[idx[i+ahead]] while it loads words[idx[i]], into L1 or only into L2",
		"(genutil.PrefetchFar); every idx[i] must index words.")
	words := Load(Param("words").Base(), GP64())
	idx := Load(Param("idx").Base(), GP64())
	n := Load(Param("idx").Len(), GP64())
	ahead := Load(Param("ahead"), GP64())
	intoL1 := Load(Param("intoL1"), GP8())
	sum, rem := GP64(), GP64()
	XORQ(sum, sum)
	// The first n - ahead keys prefetch the key ahead of them; the last
	// ahead keys (all n when there are no more) only load.
	MOVQ(n, rem)
	count := GP64()
	MOVQ(n, count)
	SUBQ(ahead, count)
	JLE(LabelRef("tail"))
	MOVQ(ahead, rem)
	TESTB(intoL1, intoL1)
	JNZ(LabelRef("loopL1"))
	for _, l1 := range []bool{false, true} {
		loop := "loop"
		if l1 {
			loop = "loopL1"
		}
		Label(loop)
		p, x := GP64(), GP64()
		MOVQ(Mem{Base: idx}, p)
		MOVQ(Mem{Base: idx, Index: ahead, Scale: 8}, x)
		genutil.PrefetchFar(Mem{Base: words, Index: x, Scale: 8}, l1)
		ADDQ(Mem{Base: words, Index: p, Scale: 8}, sum)
		ADDQ(U8(8), idx)
		DECQ(count)
		JNZ(LabelRef(loop))
		if !l1 {
			JMP(LabelRef("tail"))
		}
	}

	Label("tail")
	TESTQ(rem, rem)
	JZ(LabelRef("done"))
	t := GP64()
	MOVQ(Mem{Base: idx}, t)
	ADDQ(Mem{Base: words, Index: t, Scale: 8}, sum)
	ADDQ(U8(8), idx)
	DECQ(rem)
	JMP(LabelRef("tail"))

	Label("done")
	Store(sum, ReturnIndex(0))
	RET()

	hashedLoads()
	calledLoad()
	Generate()
}

// hashedLoads emits the one-key-per-call floor: each key hashed as the
// single-key kernels hash it (xxh3.Scalar, the per-seed key computed
// once), its line found as they find it (genutil.Line), one word of the
// line loaded; no call, no probe.
func hashedLoads() {
	TEXT("loadsHashed", NOSPLIT, "func(words, ks []uint64, seed, lines uint64) uint64")
	Pragma("noescape")
	Doc("loadsHashed returns the sum over ks of the first word of the line of",
		"engine.HashUint64Seed(k, seed) in a blocked array words of lines lines.")
	words := Load(Param("words").Base(), GP64())
	ks := Load(Param("ks").Base(), GP64())
	n := Load(Param("ks").Len(), GP64())
	key := xxh3.Key(Load(Param("seed"), GP64()))
	lines := Load(Param("lines"), GP64())
	sum := GP64()
	XORQ(sum, sum)
	TESTQ(n, n)
	JZ(LabelRef("hdone"))
	Label("hloop")
	h := GP64()
	MOVQ(Mem{Base: ks}, h)
	xxh3.Scalar(h, key)
	line := genutil.Line(h, lines, words)
	ADDQ(Mem{Base: line}, sum)
	ADDQ(U8(8), ks)
	DECQ(n)
	JNZ(LabelRef("hloop"))
	Label("hdone")
	Store(sum, ReturnIndex(0))
	RET()
}

// calledLoad emits the body of the floor of a single-key call: a key
// mixed by Boost.Bloom's one multiply (the high and low words of its
// 128-bit product with the 64-bit golden ratio, XORed), its line found
// as the single-key kernels find it, one word loaded, in a function the
// anchor's Go loop calls once per key, as blocked's single-key methods
// call their kernel: the call and the cheapest hash, no probe.
func calledLoad() {
	TEXT("loadMixed", NOSPLIT, "func(p *uint64, key uint64) uint64")
	Pragma("noescape")
	Doc("loadMixed returns the first word of the line of mulMix(key) in the",
		"blocked array p points at (a floorProbe: its first word, its lines).")
	p := Load(Param("p"), GP64())
	k := Load(Param("key"), GP64())
	MOVQ(U64(mulMixConst), reg.RDX) // MULX multiplies by RDX
	lo, h := GP64(), GP64()
	MULXQ(k, lo, h)
	XORQ(lo, h)
	line := genutil.Line(h, Mem{Base: p, Disp: 8}, Mem{Base: p})
	w := GP64()
	MOVQ(Mem{Base: line}, w)
	Store(w, ReturnIndex(0))
	RET()
}

// mulMixConst is the multiplier of Boost.Bloom's mix (bench/anchor's mulMix).
const mulMixConst = 0x9E3779B97F4A7C15
