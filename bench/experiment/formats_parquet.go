package experiment

import (
	"bytes"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/filterengine/filterengine/formats/parquet"
	"github.com/filterengine/filterengine/internal/cpulevel"
	"github.com/filterengine/filterengine/internal/hashing"
)

// FormatsParquetRow is one timing of experiment g's Parquet half:
// parquet.Filter against github.com/apache/arrow-go/v18's block-split bloom
// filter on the same hashes, both sized by OptimalNumBytes(n, 0.01).
type FormatsParquetRow struct {
	Op    string // "test" or "add"
	Impl  string // e.g. "ours TestHashes", "arrow CheckHash"
	Level string // kernel level for our batch calls, "-" otherwise
	N     uint64 // distinct values inserted
	Bytes int
	// NsPerKey is the median over the repetitions of the time per key
	// over the whole stream (2n distinct hashes, half members, for tests).
	NsPerKey float64
	// Peer names the arrow row this one is compared with, and Ratio is
	// the peer's ns/key over this row's (NaN for arrow's own rows);
	// Target is the minimum ratio aimed for, 0 where none is set.
	Peer          string
	Ratio, Target float64
	// Hits over the test stream; equal in every test row when the
	// implementations agree.
	Hits int
	// SameBits: after the same inserts our bitset equals arrow's.
	SameBits bool
}

// Implementations in experiment g's Parquet rows.
const (
	ParquetOursBatch     = "ours TestHashes"
	ParquetOursSingle    = "ours TestHash"
	ParquetArrowCheck    = "arrow CheckHash"
	ParquetArrowBulk     = "arrow CheckBulk (batch)"
	ParquetOursAddBatch  = "ours AddHashes"
	ParquetOursAddSingle = "ours AddHash"
	ParquetArrowInsert   = "arrow InsertHash"
	ParquetArrowInsBulk  = "arrow InsertBulk (batch)"
)

// The targets: batch test >= 5x arrow's per-key CheckHash,
// single-key test >= 1.5x.
const (
	parquetTargetBatch  = 5
	parquetTargetSingle = 1.5
)

// runFormatsParquet is the Parquet half of experiment g: for each n of
// -kernel-n, both filters get the XXH64 hashes of the INT64 values 0..n-1,
// their bits are compared, and the probe stream (those n and n absent
// values, interleaved) is timed through every call, the implementations
// alternating within each repetition.
func runFormatsParquet(d *driver, c *Config, r *Results) error {
	levels := cpulevel.Available()
	var total float64
	for _, n := range c.KernelN {
		total += float64(c.Reps) * float64(n) * 3 * float64(len(levels)+3) // adds over n, tests over 2n
	}
	c.Progress.Phase(fmt.Sprintf("g: Parquet split-block filter against arrow-go, n = %v, fpp = 0.01, levels %v, %d reps", c.KernelN, levels, c.Reps), total)
	for _, n := range c.KernelN {
		rows, err := formatsParquetRows(d, c, int(n), levels)
		r.FormatsParquet = append(r.FormatsParquet, rows...)
		if err != nil {
			return err
		}
	}
	return nil
}

// parquetTimer collects one implementation's timings.
type parquetTimer struct {
	op, impl, level, peer string
	target                float64
	ns                    []float64
	hits                  int
}

func formatsParquetRows(d *driver, c *Config, n int, levels []cpulevel.Level) ([]FormatsParquetRow, error) {
	members := make([]uint64, n)
	probes := make([]uint64, 2*n)
	for i := range n {
		members[i] = hashing.XXH64Uint64(uint64(i))
		probes[2*i] = members[i]
		probes[2*i+1] = hashing.XXH64Uint64(uint64(n + i))
	}
	numBytes := parquet.OptimalNumBytes(uint64(n), 0.01)
	ours, err := parquet.New(numBytes)
	if err != nil {
		return nil, err
	}
	newArrow := func() metadata.BloomFilterBuilder {
		return metadata.NewBloomFilter(uint32(numBytes), uint32(numBytes), memory.DefaultAllocator)
	}
	theirs := newArrow()
	defer theirs.Release()
	type checker interface {
		CheckHash(uint64) bool
		CheckBulk([]uint64) []bool
	}
	check, ok := theirs.(checker)
	if !ok {
		return nil, fmt.Errorf("arrow-go's bloom filter has no CheckHash/CheckBulk")
	}
	batch := d.batch
	out := make([]bool, batch)

	// chunks times f over probes (or members) in batches, stopping between
	// them when cancelled; f returns the hits of its chunk.
	chunks := func(keys []uint64, what string, f func([]uint64) int) (float64, int, error) {
		d.what = what
		hits, spent, err := d.span(len(keys), func(i, j int) int { return f(keys[i:j]) })
		return nsPerKey(spent, len(keys)), hits, err
	}
	count := func(bs []bool) int {
		h := 0
		for _, b := range bs {
			if b {
				h++
			}
		}
		return h
	}

	var timers []*parquetTimer
	timer := func(op, impl, level, peer string, target float64) *parquetTimer {
		t := &parquetTimer{op: op, impl: impl, level: level, peer: peer, target: target}
		timers = append(timers, t)
		return t
	}
	batchT := make([]*parquetTimer, len(levels))
	addBatchT := make([]*parquetTimer, len(levels))
	for i, l := range levels {
		batchT[i] = timer("test", ParquetOursBatch, l.String(), ParquetArrowCheck, parquetTargetBatch)
	}
	singleT := timer("test", ParquetOursSingle, "-", ParquetArrowCheck, parquetTargetSingle)
	checkT := timer("test", ParquetArrowCheck, "-", "", 0)
	bulkT := timer("test", ParquetArrowBulk, "-", "", 0)
	for i, l := range levels {
		addBatchT[i] = timer("add", ParquetOursAddBatch, l.String(), ParquetArrowInsBulk, 0)
	}
	addSingleT := timer("add", ParquetOursAddSingle, "-", ParquetArrowInsert, 0)
	insertT := timer("add", ParquetArrowInsert, "-", "", 0)
	insBulkT := timer("add", ParquetArrowInsBulk, "-", "", 0)

	sameBits := true
	var arrowBits bytes.Buffer
	for rep := range c.Reps {
		tag := fmt.Sprintf("n = %d, rep %d/%d", n, rep+1, c.Reps)
		// Adds: each implementation builds a fresh filter from the members
		// once untimed (the first touch of fresh pages is the kernel's
		// cost, not the filter's), then the timed pass adds them again.
		for i, l := range levels {
			f, _ := parquet.New(numBytes)
			f.AddHashes(members)
			restore, err := cpulevel.Use(l)
			if err != nil {
				return nil, err
			}
			ns, _, err := chunks(members, "g: ours AddHashes "+l.String()+", "+tag, func(p []uint64) int { f.AddHashes(p); return 0 })
			restore()
			if err != nil {
				return nil, err
			}
			addBatchT[i].ns = append(addBatchT[i].ns, ns)
			ours = f
		}
		f, _ := parquet.New(numBytes)
		f.AddHashes(members)
		ns, _, err := chunks(members, "g: ours AddHash, "+tag, func(p []uint64) int {
			for _, h := range p {
				f.AddHash(h)
			}
			return 0
		})
		if err != nil {
			return nil, err
		}
		addSingleT.ns = append(addSingleT.ns, ns)
		sameBits = sameBits && f.Equal(ours)
		a := newArrow()
		a.InsertBulk(members)
		ns, _, err = chunks(members, "g: arrow InsertHash, "+tag, func(p []uint64) int {
			for _, h := range p {
				a.InsertHash(h)
			}
			return 0
		})
		a.Release()
		if err != nil {
			return nil, err
		}
		insertT.ns = append(insertT.ns, ns)
		theirs.Release()
		theirs = newArrow()
		theirs.InsertBulk(members)
		check = theirs.(checker)
		ns, _, err = chunks(members, "g: arrow InsertBulk, "+tag, func(p []uint64) int { theirs.InsertBulk(p); return 0 })
		if err != nil {
			return nil, err
		}
		insBulkT.ns = append(insBulkT.ns, ns)
		arrowBits.Reset()
		if _, err := theirs.WriteTo(&arrowBits, nil); err != nil {
			return nil, err
		}
		sameBits = sameBits && bytes.Equal(arrowBits.Bytes(), ours.Bitset())

		// Tests over the probe stream, alternating implementations.
		for i, l := range levels {
			restore, err := cpulevel.Use(l)
			if err != nil {
				return nil, err
			}
			ns, hits, err := chunks(probes, "g: ours TestHashes "+l.String()+", "+tag, func(p []uint64) int { return ours.TestHashes(p, out) })
			restore()
			if err != nil {
				return nil, err
			}
			batchT[i].ns, batchT[i].hits = append(batchT[i].ns, ns), hits
		}
		// Per-key calls store each answer rather than branch on it, the
		// same loop for both libraries.
		ns, hits, err := chunks(probes, "g: ours TestHash, "+tag, func(p []uint64) int {
			for i, h := range p {
				out[i] = ours.TestHash(h)
			}
			return count(out[:len(p)])
		})
		if err != nil {
			return nil, err
		}
		singleT.ns, singleT.hits = append(singleT.ns, ns), hits
		ns, hits, err = chunks(probes, "g: arrow CheckHash, "+tag, func(p []uint64) int {
			for i, h := range p {
				out[i] = check.CheckHash(h)
			}
			return count(out[:len(p)])
		})
		if err != nil {
			return nil, err
		}
		checkT.ns, checkT.hits = append(checkT.ns, ns), hits
		ns, hits, err = chunks(probes, "g: arrow CheckBulk, "+tag, func(p []uint64) int { return count(check.CheckBulk(p)) })
		if err != nil {
			return nil, err
		}
		bulkT.ns, bulkT.hits = append(bulkT.ns, ns), hits
	}

	med := map[string]float64{}
	for _, t := range timers {
		if t.level == "-" {
			med[t.impl] = median(t.ns)
		}
	}
	var rows []FormatsParquetRow
	for _, t := range timers {
		row := FormatsParquetRow{Op: t.op, Impl: t.impl, Level: t.level, N: uint64(n), Bytes: numBytes,
			NsPerKey: median(t.ns), Peer: t.peer, Ratio: math.NaN(), Target: t.target, Hits: t.hits, SameBits: sameBits}
		if t.peer != "" {
			row.Ratio = med[t.peer] / row.NsPerKey
		}
		rows = append(rows, row)
	}
	return rows, nil
}
