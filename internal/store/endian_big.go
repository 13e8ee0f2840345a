//go:build !(386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm)

package store

// BigEndian is true where a uint32 load sees byte 0 in its high bits: data
// stays little-endian in memory and a word view of it swaps.
const BigEndian = true
