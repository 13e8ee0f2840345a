//go:build !(386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm)

package spatial

// bigEndian is true where a uint32 load sees byte 0 in its high bits: the
// cells stay little-endian in memory and the 32-bit view swaps them.
const bigEndian = true
