//go:build 386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm

package store

// BigEndian is false where a uint32 load sees byte 0 in its low bits, so
// a word view of little-endian bytes needs no swap.
const BigEndian = false
