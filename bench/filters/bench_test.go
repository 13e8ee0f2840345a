package filters

import (
	"fmt"
	"testing"

	"github.com/filterengine/filterengine/bench/dataset"
	"github.com/filterengine/filterengine/internal/cpulevel"
)

// BenchmarkSized runs the sized-filters comparison (experiment c) under go test -bench, every
// entry side by side, for benchstat: filters sized for n keys at p = 1%,
// 8-byte keys in batches of benchBatch, metric ns/key; our families once
// per kernel level. Example:
//
//	go test -run '^$' -bench 'Sized/(classic|bloom/v3)/' -count 6 ./filters
func BenchmarkSized(b *testing.B) {
	const p = 0.01
	for _, n := range []int{1_000_000, 10_000_000} {
		members := dataset.Integers(0, n)
		absent := dataset.Integers(1<<62, n)
		for _, e := range All() {
			levels := []cpulevel.Level{cpulevel.Current()}
			if e.Kernels {
				levels = cpulevel.Available()
			}
			for _, l := range levels {
				name := fmt.Sprintf("%s/n=%s/kernel=%v", e.Name, shortN(n), l)
				if !e.Kernels {
					name = fmt.Sprintf("%s/n=%s", e.Name, shortN(n))
				}
				b.Run(name, func(b *testing.B) {
					restore, err := cpulevel.Use(l)
					if err != nil {
						b.Fatal(err)
					}
					defer restore()
					benchEntry(b, e, uint64(n), p, members, absent)
				})
			}
		}
	}
}

const benchBatch = 4096

func shortN(n int) string {
	switch n {
	case 1_000_000:
		return "1e6"
	case 10_000_000:
		return "1e7"
	}
	return fmt.Sprint(n)
}

// filled builds e over every member.
func filled(b *testing.B, e Entry, n uint64, p float64, members *dataset.Keys) Filter {
	all := Batch{Ints: members.Uint64s(0, members.Len())}
	if e.Static() {
		f, err := e.Build(all)
		if err != nil {
			b.Fatal(err)
		}
		return f
	}
	f, err := e.NewNP(n, p)
	if err != nil {
		b.Fatal(err)
	}
	var views [][]byte
	for i := 0; i < members.Len(); i += benchBatch {
		j := min(i+benchBatch, members.Len())
		views = members.Views(views, i, j)
		f.Add(Batch{Keys: views, Ints: members.Uint64s(i, j)})
	}
	return f
}

// batches pre-slices keys into batches outside the timer.
func batches(keys *dataset.Keys) []Batch {
	var out []Batch
	for i := 0; i < keys.Len(); i += benchBatch {
		j := min(i+benchBatch, keys.Len())
		out = append(out, Batch{Keys: keys.Views(nil, i, j), Ints: keys.Uint64s(i, j)})
	}
	return out
}

func benchEntry(b *testing.B, e Entry, n uint64, p float64, members, absent *dataset.Keys) {
	mb, ab := batches(members), batches(absent)
	if !e.Static() {
		b.Run("op=Add", func(b *testing.B) {
			f, err := e.NewNP(n, p)
			if err != nil {
				b.Fatal(err)
			}
			keys := 0
			for i := 0; b.Loop(); i++ {
				if i%len(mb) == 0 && i > 0 {
					b.StopTimer()
					f, _ = e.NewNP(n, p) // a fresh filter per pass: no filter grows past n
					b.StartTimer()
				}
				bt := mb[i%len(mb)]
				f.Add(bt)
				keys += bt.Len()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(keys), "ns/key")
		})
	}
	f := filled(b, e, n, p, members)
	for _, op := range []struct {
		name string
		keys []Batch
	}{{"op=TestMember", mb}, {"op=TestAbsent", ab}} {
		b.Run(op.name, func(b *testing.B) {
			keys := 0
			for i := 0; b.Loop(); i++ {
				bt := op.keys[i%len(op.keys)]
				f.Test(bt)
				keys += bt.Len()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(keys), "ns/key")
		})
	}
}
