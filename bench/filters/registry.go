// Package filters is the bench's registry: one Entry per filter of this
// library and per peer library, each wrapped behind the same small
// Filter interface so every experiment iterates over the registry. A
// family joins by adding one Entry to ours.go; families that do not exist
// yet are simply absent.
package filters

import (
	"fmt"
	"slices"
	"strings"
)

// Kind says whose filter an entry is.
type Kind string

const (
	Ours Kind = "filterengine"
	Peer Kind = "peer"
)

// Batch is a run of keys handed to a filter at once. Keys always holds
// the bytes; Ints, when non-nil, holds the same keys as integers (Keys[i]
// is the 8 little-endian bytes of Ints[i]), which our filters take
// through their integer batch calls.
type Batch struct {
	Keys [][]byte
	Ints []uint64
}

// Len is the number of keys.
func (b Batch) Len() int { return len(b.Keys) }

// Filter is what the experiments need of a filter.
type Filter interface {
	// Add inserts every key of the batch: through our families' batch
	// calls, key by key for peers without a batch API.
	Add(b Batch)
	// Test returns how many keys of the batch test present, as Add.
	Test(b Batch) int
	// AddEach inserts every key of the batch with one single-key call per
	// []byte key (b.Keys), as a service adds keys: per key against per
	// key, whoever's filter it is.
	AddEach(b Batch)
	// TestEach returns how many keys of the batch test present, one
	// single-key call per []byte key.
	TestEach(b Batch) int
	// Bytes is the memory of the filter's table.
	Bytes() uint64
	// Params returns the bit-array size and probe count actually built,
	// zero where they do not apply.
	Params() (m uint64, k uint32)
}

// Resetter is a Filter that can be emptied in place, keeping its memory.
// An experiment that times Add fills such a filter once untimed and
// resets it first, so that the timed Add pays no first-touch page
// faults, as a service's long-lived filter does not.
type Resetter interface {
	Filter
	Reset()
}

// Modeled is a Filter that predicts its own false-positive rate after
// n distinct keys.
type Modeled interface {
	ModelFPR(n uint64) float64
}

// Remover is a Filter that deletes keys (the counting filters). Remove
// returns how many keys of the batch it removed.
type Remover interface {
	Remove(b Batch) int
}

// Entry is one filter in the registry.
type Entry struct {
	Name string
	Kind Kind
	// About is one line for the report: what the entry is and how it is
	// driven.
	About string
	// NewNP builds a filter for n keys at target false-positive rate p;
	// nil for static filters.
	NewNP func(n uint64, p float64) (Filter, error)
	// NewMK builds a filter of about m bits and k probes; nil when the
	// filter has no such form (the streaming experiments skip it).
	NewMK func(m uint64, k uint32) (Filter, error)
	// Build constructs a static filter from its whole key set; nil for
	// dynamic filters.
	Build func(keys Batch) (Filter, error)
	// Kernels is true when the entry's batch calls dispatch on asm levels.
	Kernels bool
}

// Static reports whether the filter is built once from all its keys.
func (e Entry) Static() bool { return e.Build != nil }

// All returns every registered entry: this library's families first, then
// the peers.
func All() []Entry { return append(ours(), peers()...) }

// Names lists the names of entries.
func Names(es []Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Name
	}
	return out
}

// Select returns the entries named in a comma-separated list ("" or
// "all" for every entry; "ours" and "peers" for either group), in
// registry order; an unknown name is an error that lists the known ones.
func Select(list string) ([]Entry, error) {
	all := All()
	list = strings.TrimSpace(list)
	if list == "" || list == "all" {
		return all, nil
	}
	want := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		switch {
		case name == "ours" || name == "peers":
			want[name] = true
		case slices.Contains(Names(all), name):
			want[name] = true
		default:
			return nil, fmt.Errorf("unknown filter %q (known: ours, peers, %s)", name, strings.Join(Names(all), ", "))
		}
	}
	var out []Entry
	for _, e := range all {
		if want[e.Name] || (want["ours"] && e.Kind == Ours) || (want["peers"] && e.Kind == Peer) {
			out = append(out, e)
		}
	}
	return out, nil
}
