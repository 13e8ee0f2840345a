module github.com/filterengine/filterengine/bench

go 1.26.0

require github.com/filterengine/filterengine v0.0.0

require (
	github.com/klauspost/cpuid/v2 v2.4.2 // indirect
	github.com/zeebo/xxh3 v1.1.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)

replace github.com/filterengine/filterengine => ../
