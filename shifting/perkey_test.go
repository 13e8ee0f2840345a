package shifting

import (
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/perkey"
)

// BenchmarkPerKey is perkey.Table at p = 1%:
//
//	go test -run '^$' -bench PerKey ./shifting
//	go test -tags purego -run '^$' -bench 'PerKey/.*/op=TestHash' ./shifting
func BenchmarkPerKey(b *testing.B) {
	perkey.Table(b, func(n uint64) (*Filter, error) { return New(n, 0.01) })
}
