package interop

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/filterengine/filterengine/formats/parquet"
	"github.com/filterengine/filterengine/internal/cpulevel"
	"github.com/filterengine/filterengine/internal/hashing"
)

// parquetBenchData is n distinct member hashes (XXH64 of the 8-byte values
// 0..n-1, as Parquet hashes INT64) and n distinct absent ones, interleaved
// so a probe stream is half members.
func parquetBenchData(n int) (members, probes []uint64) {
	members = make([]uint64, n)
	probes = make([]uint64, 2*n)
	for i := range n {
		members[i] = hashing.XXH64Uint64(uint64(i))
		probes[2*i] = members[i]
		probes[2*i+1] = hashing.XXH64Uint64(uint64(n + i))
	}
	return members, probes
}

// BenchmarkParquetSBBF compares parquet.Filter with arrow-go's block-split
// bloom filter on the same hashes, both sized by OptimalNumBytes(n, 0.01) (2
// MiB at n = 1e6): per-key calls against per-key calls, and our batch
// kernels (one sub-benchmark per level) against arrow's per-key CheckHash,
// which is what the Parquet filter's speed target compares. ns/key covers the whole
// probe stream of 2n distinct hashes.
func BenchmarkParquetSBBF(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		members, probes := parquetBenchData(n)
		numBytes := parquet.OptimalNumBytes(uint64(n), 0.01)
		ours, _ := parquet.New(numBytes)
		ours.AddHashes(members)
		theirs := metadata.NewBloomFilter(uint32(numBytes), uint32(numBytes), memory.DefaultAllocator)
		theirs.InsertBulk(members)
		check := theirs.(arrowChecker)
		out := make([]bool, 4096)
		perKey := func(b *testing.B) {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(probes)), "ns/key")
		}
		prefix := fmt.Sprintf("n=%d/bytes=%d", n, numBytes)
		for _, l := range cpulevel.Available() {
			b.Run(prefix+"/ours-TestHashes/kernel="+l.String(), func(b *testing.B) {
				restore, _ := cpulevel.Use(l)
				defer restore()
				for b.Loop() {
					for i := 0; i < len(probes); i += len(out) {
						ours.TestHashes(probes[i:min(i+len(out), len(probes))], out)
					}
				}
				perKey(b)
			})
		}
		b.Run(prefix+"/ours-TestHash", func(b *testing.B) {
			hits := 0
			for b.Loop() {
				for _, h := range probes {
					if ours.TestHash(h) {
						hits++
					}
				}
			}
			perKey(b)
			parquetSinkInt = hits
		})
		b.Run(prefix+"/arrow-CheckHash", func(b *testing.B) {
			hits := 0
			for b.Loop() {
				for _, h := range probes {
					if check.CheckHash(h) {
						hits++
					}
				}
			}
			perKey(b)
			parquetSinkInt = hits
		})
		// The same per-key calls with each answer stored, not branched on:
		// nothing stops the next key's load, so misses overlap and the
		// shorter instruction stream wins.
		b.Run(prefix+"/ours-TestHash-store", func(b *testing.B) {
			for b.Loop() {
				for i, h := range probes {
					out[i&4095] = ours.TestHash(h)
				}
			}
			perKey(b)
		})
		b.Run(prefix+"/arrow-CheckHash-store", func(b *testing.B) {
			for b.Loop() {
				for i, h := range probes {
					out[i&4095] = check.CheckHash(h)
				}
			}
			perKey(b)
		})
		b.Run(prefix+"/arrow-CheckBulk(batch)", func(b *testing.B) {
			bulk := theirs.(interface{ CheckBulk([]uint64) []bool })
			for b.Loop() {
				for i := 0; i < len(probes); i += len(out) {
					parquetSinkBools = bulk.CheckBulk(probes[i:min(i+len(out), len(probes))])
				}
			}
			perKey(b)
		})
		b.Run(prefix+"/ours-AddHashes", func(b *testing.B) {
			f, _ := parquet.New(numBytes)
			for b.Loop() {
				f.AddHashes(probes)
			}
			perKey(b)
		})
		b.Run(prefix+"/arrow-InsertBulk", func(b *testing.B) {
			f := metadata.NewBloomFilter(uint32(numBytes), uint32(numBytes), memory.DefaultAllocator)
			for b.Loop() {
				f.InsertBulk(probes)
			}
			perKey(b)
		})
	}
}

var (
	parquetSinkInt   int
	parquetSinkBools []bool
)
