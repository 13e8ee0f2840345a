module github.com/filterengine/filterengine/gen

go 1.26.0

replace github.com/filterengine/filterengine => ../

require github.com/mmcloughlin/avo v0.5.0

require (
	github.com/klauspost/cpuid/v2 v2.4.2 // indirect
	github.com/zeebo/xxh3 v1.1.0 // indirect
)

require (
	github.com/filterengine/filterengine v0.0.0-00010101000000-000000000000
	golang.org/x/mod v0.6.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.2.0 // indirect
)
