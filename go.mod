module github.com/filterengine/filterengine

go 1.26.0

require (
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/zeebo/xxh3 v1.1.0
	golang.org/x/sys v0.49.0
)
