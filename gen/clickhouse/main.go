// Command clickhouse generates the token-mask kernel of the ClickHouse
// module, clickhouse.tokenMasksSSE2, twin of tokenMasksGeneric in
// formats/clickhouse/scan.go: bit j of dst[i] is set when byte 64i+j of
// src is a token byte of tokenbf_v1 ([0-9A-Za-z] or >= 0x80).
//
// Every amd64 processor has SSE2, so the kernel needs no feature check.
// Per 16 bytes b, two signed range tests, each a bias that moves its range
// to the bottom of the signed bytes and one PCMPGTB against the range's
// last value: d = b + (0x80-'0') is greater than 0x80+'9'-'0' when b is no
// digit; a = (b | 0x20) + (0x80-'a') is greater than 0x80+'z'-'a' when b
// is no letter (OR 0x20 folds ASCII letters to lower case, and no other
// byte lands in [a-z]). Then ^b & d & a has its top bit set exactly at the
// separators: bytes >= 0x80 carry their own top bit. PMOVMSKB gathers the
// top bits; four of them, shifted into place, and a NOT make a block's
// 64-bit mask. The out-of-range form needs no copy of the bounds, which
// PCMPGTB would overwrite.
package main

//go:generate go run . -out ../../formats/clickhouse/scan_amd64.s -stubs ../../formats/clickhouse/scan_stub_amd64.go -pkg clickhouse

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The range tests, from the token bytes' definition: a bias that maps the
// range's first byte to 0x80 (the least signed byte) and the image of its
// last byte, above which a biased byte is outside the range.
const (
	digitBias = 0x80 - '0'
	digitLast = 0x80 + '9' - '0'
	caseBit   = 'a' - 'A'
	alphaBias = 0x80 - 'a'
	alphaLast = 0x80 + 'z' - 'a'
)

// ranges holds the XMM registers of the range-test constants.
type ranges struct {
	digitBias, digitLast, caseBit, alphaBias, alphaLast reg.VecVirtual
}

func main() {
	// avo v0.5.0 parses the comma form; it writes "amd64 && gc && !purego".
	ConstraintExpr("amd64,gc,!purego")
	consts := GLOBL("tokenRanges", RODATA|NOPTR)
	for i, c := range []byte{digitBias, digitLast, caseBit, alphaBias, alphaLast} {
		DATA(16*i, U64(uint64(c)*0x0101010101010101))
		DATA(16*i+8, U64(uint64(c)*0x0101010101010101))
	}

	TEXT("tokenMasksSSE2", NOSPLIT, "func(dst []uint64, src []byte)")
	Pragma("noescape")
	Doc("tokenMasksSSE2 is tokenMasksGeneric; src must hold 64*len(dst) bytes.")
	dst := Load(Param("dst").Base(), GP64())
	n := Load(Param("dst").Len(), GP64())
	src := Load(Param("src").Base(), GP64())
	r := ranges{XMM(), XMM(), XMM(), XMM(), XMM()}
	for i, x := range []reg.VecVirtual{r.digitBias, r.digitLast, r.caseBit, r.alphaBias, r.alphaLast} {
		MOVOU(consts.Offset(16*i), x)
	}
	TESTQ(n, n)
	JZ(LabelRef("done"))

	Label("block")
	var m [4]reg.GPVirtual
	for i := range m {
		m[i] = separators16(r, Mem{Base: src, Disp: 16 * i})
	}
	for i := 1; i < 4; i++ {
		SHLQ(U8(16*i), m[i])
	}
	ORQ(m[1], m[0])
	ORQ(m[3], m[2])
	ORQ(m[2], m[0])
	NOTQ(m[0])
	MOVQ(m[0], Mem{Base: dst})
	ADDQ(U8(64), src)
	ADDQ(U8(8), dst)
	DECQ(n)
	JNZ(LabelRef("block"))

	Label("done")
	RET()
	Generate()
}

// separators16 returns a new register whose low 16 bits mark the
// separators among the 16 bytes at mem.
func separators16(r ranges, mem Mem) reg.GPVirtual {
	b, d, a := XMM(), XMM(), XMM()
	MOVOU(mem, b)
	MOVO(b, d)
	PADDB(r.digitBias, d)
	PCMPGTB(r.digitLast, d) // d > last: no digit
	MOVO(b, a)
	POR(r.caseBit, a)
	PADDB(r.alphaBias, a)
	PCMPGTB(r.alphaLast, a) // a > last: no letter
	PAND(d, a)
	PANDN(a, b) // b = ^b & a
	m := GP64()
	PMOVMSKB(b, m.As32())
	return m
}
