package shifting

import (
	"testing"

	"github.com/filterengine/filterengine/internal/perkey"
)

// BenchmarkPerKey is perkey.Bench: n distinct keys one call per key, and
// labelled batch, TestHashes:
//
//	go test -run '^$' -bench PerKey ./shifting
//	go test -tags purego -run '^$' -bench 'PerKey/.*/op=TestHash' ./shifting
func BenchmarkPerKey(b *testing.B) {
	perkey.Bench(b, func(n uint64, p float64) (*Filter, error) { return New(n, p) }, nil)
}
