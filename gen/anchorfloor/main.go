// Command anchorfloor generates the prefetching floor loop of the bench
// module's anchor (bench/anchor): the same loads as the blocked batch
// test, one word of each key's line, with the software prefetch the
// batch kernels issue, and nothing else. Go has no prefetch statement, so
// the loop is assembly.
package main

//go:generate go run . -out ../../bench/anchor/floor_amd64.s -stubs ../../bench/anchor/floor_stub_amd64.go -pkg main

import (
	"github.com/filterengine/filterengine/gen/internal/genutil"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

func main() {
	// avo v0.5.0 parses the comma form; it writes "amd64 && gc && !purego".
	ConstraintExpr("amd64,gc,!purego")
	TEXT("loadsPrefetched", NOSPLIT, "func(words, idx []uint64, ahead int) uint64")
	Pragma("noescape")
	Doc("loadsPrefetched returns the sum of words[idx[i]] over idx, prefetching",
		"words[idx[i+ahead]] while it loads words[idx[i]]; every idx[i] must",
		"index words.")
	words := Load(Param("words").Base(), GP64())
	idx := Load(Param("idx").Base(), GP64())
	n := Load(Param("idx").Len(), GP64())
	ahead := Load(Param("ahead"), GP64())
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

	Label("loop")
	p, x := GP64(), GP64()
	MOVQ(Mem{Base: idx}, p)
	MOVQ(Mem{Base: idx, Index: ahead, Scale: 8}, x)
	genutil.PrefetchFar(Mem{Base: words, Index: x, Scale: 8})
	ADDQ(Mem{Base: words, Index: p, Scale: 8}, sum)
	ADDQ(U8(8), idx)
	DECQ(count)
	JNZ(LabelRef("loop"))

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
	Generate()
}
