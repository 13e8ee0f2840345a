package experiment

import (
	"fmt"
	"math"
	"time"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/bench/dataset"
	"github.com/filterengine/filterengine/bench/filters"
	"github.com/filterengine/filterengine/internal/cpulevel"
)

// kernelP is experiment d's target rate.
const kernelP = 0.01

// runKernels is experiment d: every entry whose batch calls dispatch on
// kernels, at every level this CPU runs, against the generic level.
func runKernels(d *driver, c *Config, r *Results) error {
	var entries []filters.Entry
	for _, e := range c.Entries {
		if e.Kernels && !e.Static() {
			entries = append(entries, e)
		}
	}
	levels := cpulevel.Available()
	var total float64
	for _, n := range c.KernelN {
		total += float64(len(entries)*len(levels)*c.Reps) * repKeys(n, c.SizedProbes)
		total += float64(len(levels)*c.Reps) * float64(n)
	}
	c.Progress.Phase(fmt.Sprintf("d: kernels %v against generic, n = %v, p = %v, %d reps", levels, c.KernelN, kernelP, c.Reps), total)
	absent := dataset.Integers(absentFirst, c.SizedProbes)
	for _, n := range c.KernelN {
		members := dataset.Integers(0, int(n))
		rows, err := hashRows(d, c, n, levels, members)
		r.Kernels = append(r.Kernels, rows...)
		if err != nil {
			return err
		}
		for _, e := range entries {
			rows, err := kernelRows(d, c, e, n, levels, members, absent)
			r.Kernels = append(r.Kernels, rows...)
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func kernelRows(d *driver, c *Config, e filters.Entry, n uint64, levels []cpulevel.Level, members, absent *dataset.Keys) ([]KernelRow, error) {
	var rows []KernelRow
	for _, l := range levels {
		restore, err := cpulevel.Use(l)
		if err != nil {
			return rows, err
		}
		var add, member, absentNs []float64
		var last measured
		for rep := range c.Reps {
			d.what = fmt.Sprintf("%s at %v, n = %d, rep %d/%d", e.Name, l, n, rep+1, c.Reps)
			res, err := measure(d, e, n, kernelP, members, absent)
			if err != nil {
				restore()
				return rows, err
			}
			add = append(add, nsPerKey(res.add, members.Len()))
			member = append(member, nsPerKey(res.member, timedMembers(members, absent)))
			absentNs = append(absentNs, nsPerKey(res.absent, absent.Len()))
			last = res
		}
		restore()
		rows = append(rows, KernelRow{
			Filter: e.Name, Level: l.String(), N: n,
			AddNs: median(add), TestMemberNs: median(member), TestAbsentNs: median(absentNs),
			MemberHits: last.memberHits, AbsentHits: last.absentHits,
		})
	}
	base := rows[0] // asm.Available starts with Generic
	for i := range rows {
		rows[i].AddSpeedup = base.AddNs / rows[i].AddNs
		rows[i].TestMemberSpeedup = base.TestMemberNs / rows[i].TestMemberNs
		rows[i].TestAbsentSpeedup = base.TestAbsentNs / rows[i].TestAbsentNs
		rows[i].SameAnswers = rows[i].MemberHits == base.MemberHits && rows[i].AbsentHits == base.AbsentHits
	}
	return rows, nil
}

// HashKernel names experiment d's rows for the batch hash itself.
const HashKernel = "asm.HashUint64s"

// hashRows times the batch XXH3 of 8-byte keys, the kernel every family's
// integer calls start with, at every level; its ns/key sits in the Test
// member column and the answers are compared through a checksum of the
// hashes.
func hashRows(d *driver, c *Config, n uint64, levels []cpulevel.Level, members *dataset.Keys) ([]KernelRow, error) {
	ks := members.Uint64s(0, members.Len())
	dst := make([]uint64, c.Batch)
	var rows []KernelRow
	for _, l := range levels {
		restore, err := cpulevel.Use(l)
		if err != nil {
			return rows, err
		}
		var ns []float64
		var sum uint64
		for rep := range c.Reps {
			d.what = fmt.Sprintf("%s at %v, n = %d, rep %d/%d", HashKernel, l, n, rep+1, c.Reps)
			var spent time.Duration
			sum = 0
			for i := 0; i < len(ks); i += c.Batch {
				if err := d.ctx.Err(); err != nil {
					restore()
					return rows, err
				}
				j := min(i+c.Batch, len(ks))
				t0 := time.Now()
				asm.HashUint64s(dst, ks[i:j], 0)
				spent += time.Since(t0)
				for _, h := range dst[:j-i] {
					sum = sum*31 + h
				}
				d.prog.Advance(float64(j-i), d.what)
			}
			ns = append(ns, nsPerKey(spent, len(ks)))
		}
		restore()
		rows = append(rows, KernelRow{Filter: HashKernel, Level: l.String(), N: n,
			AddNs: math.NaN(), TestMemberNs: median(ns), TestAbsentNs: math.NaN(), Checksum: sum})
	}
	for i := range rows {
		rows[i].TestMemberSpeedup = rows[0].TestMemberNs / rows[i].TestMemberNs
		rows[i].AddSpeedup, rows[i].TestAbsentSpeedup = math.NaN(), math.NaN()
		rows[i].SameAnswers = rows[i].Checksum == rows[0].Checksum
	}
	return rows, nil
}
