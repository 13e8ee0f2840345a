//go:build 386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm

package spatial

// bigEndian is false where a uint32 load sees byte 0 in its low bits, so
// the 32-bit view of the cells needs no swap.
const bigEndian = false
