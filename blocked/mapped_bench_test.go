package blocked

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/filetest"
)

// openMiB sizes the file BenchmarkOpen saves and reopens; Open's targets
// are stated for 1024 (a 1 GiB file, about 8.6e8 keys at 1%):
// go test -run '^$' -bench Open -benchtime 5x -openmib 1024 ./blocked
var openMiB = flag.Int("openmib", 64, "size in MiB of the filter file BenchmarkOpen maps")

// savedFilter writes a filter of size MiB with random words (half the
// bits set, as a filter at its design load) to a temporary file.
func savedFilter(b *testing.B, mib int) (*Filter, string) {
	b.Helper()
	f, err := NewMK(uint64(mib)<<23, 6)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, uint64(mib)))
	for i := range f.p.Words {
		f.p.Words[i] = r.Uint64()
	}
	path := filepath.Join(b.TempDir(), "filter.fe")
	if err := f.WriteFile(path); err != nil {
		b.Fatal(err)
	}
	return f, path
}

// rssMiB is this process's resident memory.
func rssMiB(b *testing.B) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	s := bufio.NewScanner(bytes.NewReader(data))
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// BenchmarkOpen times getting a saved filter ready to test: os.ReadFile
// of the file (the yardstick), Read (decode into new memory), Open with
// the checksum and Open without it, each with the resident memory it
// adds (rss-MiB) before any key is tested.
func BenchmarkOpen(b *testing.B) {
	_, path := savedFilter(b, *openMiB)
	name := fmt.Sprintf("size=%dMiB", *openMiB)
	run := func(b *testing.B, load func() (func(), error)) {
		var grew float64
		var took time.Duration
		for b.Loop() {
			b.StopTimer()
			debug.FreeOSMemory()
			before := rssMiB(b)
			b.StartTimer()
			start := time.Now()
			done, err := load()
			took += time.Since(start)
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			grew = rssMiB(b) - before
			done()
			b.StartTimer()
		}
		b.ReportMetric(grew, "rss-MiB")
		b.ReportMetric(float64(took.Microseconds())/1000/float64(b.N), "ms/open")
	}
	b.Run(name+"/ReadFile", func(b *testing.B) {
		run(b, func() (func(), error) {
			d, err := os.ReadFile(path)
			return func() { _ = d }, err
		})
	})
	b.Run(name+"/Read", func(b *testing.B) {
		run(b, func() (func(), error) {
			fh, err := os.Open(path)
			if err != nil {
				return nil, err
			}
			defer fh.Close()
			f, err := Read(bufio.NewReaderSize(fh, 1<<20))
			if err != nil {
				return nil, err
			}
			return func() { _ = f.Close() }, nil
		})
	})
	for _, o := range []struct {
		name string
		opts []engine.Option
	}{{"Open", nil}, {"OpenWithoutChecksum", []engine.Option{engine.WithoutChecksum()}}} {
		b.Run(name+"/"+o.name, func(b *testing.B) {
			run(b, func() (func(), error) {
				f, err := Open(path, o.opts...)
				if err != nil {
					return nil, err
				}
				return func() { _ = f.Close() }, nil
			})
		})
	}
}

// BenchmarkTestAfterOpen compares batch TestUint64s over 1e6 random keys
// on an opened (mapped) filter with the same filter read into memory,
// pages warm, and checks that both answer alike.
func BenchmarkTestAfterOpen(b *testing.B) {
	_, path := savedFilter(b, *openMiB)
	mapped, err := Open(path, engine.WithoutChecksum())
	if err != nil {
		b.Fatal(err)
	}
	defer mapped.Close()
	fh, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	loaded, err := Read(bufio.NewReader(fh))
	fh.Close()
	if err != nil {
		b.Fatal(err)
	}
	keys := make([]uint64, 1_000_000)
	r := rand.New(rand.NewPCG(9, 9))
	for i := range keys {
		keys[i] = r.Uint64()
	}
	got, want := make([]bool, len(keys)), make([]bool, len(keys))
	mapped.TestUint64s(keys, got)
	loaded.TestUint64s(keys, want)
	if !bytes.Equal(boolBytes(got), boolBytes(want)) {
		b.Fatal("the mapped filter answers differently from the loaded one")
	}
	// The same file written in 64 KiB pieces sits in the page cache as
	// small folios, so its mapping gets 4 KiB pages (engine's doc).
	small, err := Open(copySmallWrites(b, path), engine.WithoutChecksum())
	if err != nil {
		b.Fatal(err)
	}
	defer small.Close()
	name := fmt.Sprintf("size=%dMiB", *openMiB)
	for _, c := range []struct {
		name string
		f    *Filter
	}{{"loaded", loaded}, {"mapped", mapped}, {"mapped-small-folios", small}} {
		b.Run(name+"/"+c.name, func(b *testing.B) {
			for b.Loop() {
				c.f.TestUint64s(keys, got)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(keys)), "ns/key")
			reportPages(b, c.f)
		})
	}
	// The first batch after Open pays the page faults: one per 2 MiB
	// where the file is on huge pages, one per 4 KiB page touched where
	// it is not.
	b.Run(name+"/mapped-first", func(b *testing.B) {
		for b.Loop() {
			f, err := Open(path, engine.WithoutChecksum())
			if err != nil {
				b.Fatal(err)
			}
			f.TestUint64s(keys, got)
			b.StopTimer()
			reportPages(b, f)
			_ = f.Close()
			b.StartTimer()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(keys)), "ns/key")
	})
}

// copySmallWrites copies the file at path to a new file in 64 KiB
// write calls and returns its path.
func copySmallWrites(b *testing.B, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(b.TempDir(), "small.fe")
	f, err := os.Create(out)
	if err != nil {
		b.Fatal(err)
	}
	for len(data) > 0 {
		n := min(len(data), 64<<10)
		if _, err := f.Write(data[:n]); err != nil {
			b.Fatal(err)
		}
		data = data[n:]
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return out
}

// reportPages reports how f's words are backed: mapped from 2 MiB
// page-cache folios (filepmd-MiB) or anonymous huge pages (anonhuge-MiB).
func reportPages(b *testing.B, f *Filter) {
	p := filetest.PagesAt(unsafe.Pointer(unsafe.SliceData(f.p.Words)))
	b.ReportMetric(p.FilePmdMapped, "filepmd-MiB")
	b.ReportMetric(p.AnonHuge, "anonhuge-MiB")
}

func boolBytes(bs []bool) []byte {
	out := make([]byte, len(bs))
	for i, v := range bs {
		if v {
			out[i] = 1
		}
	}
	return out
}
