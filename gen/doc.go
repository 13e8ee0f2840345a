// Package gen holds the avo generators of the amd64 kernels in ../asm, one
// main package per kernel family, and of the token-mask kernel of the
// ClickHouse module (clickhouse/, writing formats/clickhouse/scan_amd64.s
// and scan_stub_amd64.go) and of the anchor's prefetching floor loop
// (anchorfloor/, writing bench/anchor/floor_amd64.s and
// floor_stub_amd64.go). `go generate ./...` here (or `make generate` at
// the top) rewrites asm/<family>_amd64.s and asm/<family>_stub_amd64.go;
// `make check-generate` fails when the committed files differ from what the
// generators write.
package gen
