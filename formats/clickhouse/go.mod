module github.com/filterengine/filterengine/formats/clickhouse

go 1.26.0

require (
	github.com/go-faster/city v1.0.1
	github.com/klauspost/compress v1.20.4
	github.com/pierrec/lz4/v4 v4.1.33
)
