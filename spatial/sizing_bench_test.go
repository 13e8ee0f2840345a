package spatial

import (
	"fmt"
	"testing"
)

// BenchmarkSizing times each layout's sizing: New's (sizeFor, sizeForLineLocal)
// for 1000 keys over 3 areas down to p = 1e-20, and NewAreas's
// (sizeForAreas, sizeForAreasLineLocal) for 3 to 65535 areas of 1 to 7 keys at
// 1%. The line-local model's occupancy tables are shared by the process,
// so only a run's first iteration builds them (-benchtime=1x in a fresh
// process times that).
func BenchmarkSizing(b *testing.B) {
	for _, p := range []float64{1e-2, 1e-6, 1e-9, 1e-20} {
		b.Run(fmt.Sprintf("New/p=%g/libSBF", p), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := sizeFor(1000, p); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("New/p=%g/line-local", p), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := sizeForLineLocal(1000, 3, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	for _, areas := range []int{3, 1000, MaxAreas} {
		counts := make([]uint64, areas)
		for i := range counts {
			counts[i] = uint64(1 + i%7)
		}
		b.Run(fmt.Sprintf("NewAreas/areas=%d/libSBF", areas), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := sizeForAreas(counts, 0.01); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("NewAreas/areas=%d/line-local", areas), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := sizeForAreasLineLocal(counts, 0.01); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
