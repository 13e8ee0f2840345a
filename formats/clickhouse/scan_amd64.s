//go:build amd64 && gc && !purego

#include "textflag.h"

// Byte vectors for the range tests of tokenMasksSSE2.
DATA scanconst<>+0(SB)/8, $0x2f2f2f2f2f2f2f2f  // '0' - 1
DATA scanconst<>+8(SB)/8, $0x2f2f2f2f2f2f2f2f
DATA scanconst<>+16(SB)/8, $0x3a3a3a3a3a3a3a3a // '9' + 1
DATA scanconst<>+24(SB)/8, $0x3a3a3a3a3a3a3a3a
DATA scanconst<>+32(SB)/8, $0x2020202020202020 // ASCII case bit
DATA scanconst<>+40(SB)/8, $0x2020202020202020
DATA scanconst<>+48(SB)/8, $0x6060606060606060 // 'a' - 1
DATA scanconst<>+56(SB)/8, $0x6060606060606060
DATA scanconst<>+64(SB)/8, $0x7b7b7b7b7b7b7b7b // 'z' + 1
DATA scanconst<>+72(SB)/8, $0x7b7b7b7b7b7b7b7b
GLOBL scanconst<>(SB), RODATA|NOPTR, $80

// MASK16 sets the low 16 bits of reg to the token bytes of the 16 bytes at
// off(SI): bytes >= 0x80 (negative as signed bytes), [0-9], and [A-Za-z]
// (folded to lower case with 0x20).
#define MASK16(off, reg) \
	MOVOU   off(SI), X0 \
	PXOR    X1, X1      \
	PCMPGTB X0, X1      \
	MOVO    X0, X2      \
	PCMPGTB X8, X2      \
	MOVO    X9, X3      \
	PCMPGTB X0, X3      \
	PAND    X3, X2      \
	POR     X2, X1      \
	MOVO    X0, X2      \
	POR     X10, X2     \
	MOVO    X2, X3      \
	PCMPGTB X11, X2     \
	MOVO    X12, X4     \
	PCMPGTB X3, X4      \
	PAND    X4, X2      \
	POR     X2, X1      \
	PMOVMSKB X1, reg

// func tokenMasksSSE2(dst []uint64, src []byte)
TEXT ·tokenMasksSSE2(SB), NOSPLIT, $0-48
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	MOVOU scanconst<>+0(SB), X8
	MOVOU scanconst<>+16(SB), X9
	MOVOU scanconst<>+32(SB), X10
	MOVOU scanconst<>+48(SB), X11
	MOVOU scanconst<>+64(SB), X12
	TESTQ CX, CX
	JZ    done

block:
	MASK16(0, AX)
	MASK16(16, BX)
	MASK16(32, DX)
	MASK16(48, R8)
	SHLQ $16, BX
	SHLQ $32, DX
	SHLQ $48, R8
	ORQ  BX, AX
	ORQ  DX, AX
	ORQ  R8, AX
	MOVQ AX, (DI)
	ADDQ $64, SI
	ADDQ $8, DI
	DECQ CX
	JNZ  block

done:
	RET
