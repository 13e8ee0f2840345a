package experiment

import "slices"

// StreamPoint is one checkpoint of experiment a (or the end of a run of
// experiment b, where K varies).
type StreamPoint struct {
	Dist   string
	Filter string
	M      uint64 // bits actually built
	K      uint32
	Rows   int // rows inserted so far
	// Distinct keys among them, which the model needs.
	Distinct       int
	Tested         int // never-inserted values tested
	FalsePositives int
	FPR            float64
	// ModelFPR is the filter's own prediction for Distinct keys, NaN when
	// it has none.
	ModelFPR float64
	// AddSeconds is the time spent in Add up to this point; TestNsPerKey
	// the cost of the test at this point.
	AddSeconds   float64
	TestNsPerKey float64
}

// SizedRow is one filter of experiment c.
type SizedRow struct {
	Filter     string
	Ours       bool // a filterengine family: its batch columns are batch calls
	N          uint64
	P          float64
	M          uint64
	K          uint32
	Bytes      uint64
	BitsPerKey float64
	// Median ns per key over the repetitions through the batch calls
	// (Filter.Add/Test: our families' batch forms, the peers' per-key
	// loop); for a static filter Add is its construction from all keys.
	// Test member times the first min(N, Tested) members; FalseNegatives
	// counts over all N.
	AddNs, TestMemberNs, TestAbsentNs float64
	// The same with one single-key call per []byte key
	// (Filter.AddEach/TestEach), every filter alike; NaN for a static
	// filter's Add.
	KeyAddNs, KeyTestMemberNs, KeyTestAbsentNs float64
	// RemoveNs is the median time to remove the timed members, NaN for
	// filters without Remove; Removed how many the last repetition removed.
	RemoveNs               float64
	Removed                int
	FalseNegatives         int
	Tested, FalsePositives int
	FPR, ModelFPR          float64
}

// KernelRow is one filter at one kernel level of experiment d.
type KernelRow struct {
	Filter string
	Level  string
	N      uint64
	// Median ns per key, and the generic level's median over this one's.
	AddNs, TestMemberNs, TestAbsentNs                float64
	AddSpeedup, TestMemberSpeedup, TestAbsentSpeedup float64
	// Hits are the member (over the timed members) and absent hits, equal
	// on every level when the kernels agree with the reference.
	MemberHits, AbsentHits int
	// Checksum folds the outputs of a kernel that is not a filter.
	Checksum    uint64
	SameAnswers bool
}

// SetsRow is one filter on one key class of experiment f. Rate is the
// share of answers that are right and certain: ShBF_A's clear answers of
// members (a clear answer is never wrong), two classic filters' exact
// answers (in S1, in S2) of members, "in neither" of non-members for
// both; the exact count of ShBF_x and the counting filter (0 for
// non-members). ModelRate is that share by the structure's model, NaN
// where it has none. Wrong counts contract violations, which must be 0:
// a member answer without the key's outcome or "neither" (ShBF_A), a
// false negative (classic), a count below the truth (multiplicity).
type SetsRow struct {
	Query    string // "association" or "multiplicity"
	Filter   string
	Keys     string // KeysS1Only, KeysS2Only, KeysBoth, KeysAbsent, KeysMembers
	N        uint64
	K        uint32
	MaxCount uint32 // multiplicity only
	Bytes    uint64
	Queried  int
	// Ns is the median ns/key of hashing and querying.
	Ns              float64
	Rate, ModelRate float64
	Wrong           int
}

// BitsPerKey is the memory per distinct key inserted.
func (s SetsRow) BitsPerKey() float64 { return 8 * float64(s.Bytes) / float64(max(s.N, 1)) }

// Results holds everything a run measured, including a partial run.
type Results struct {
	Stream  []StreamPoint
	KSweep  []StreamPoint
	Sized   []SizedRow
	Kernels []KernelRow
	Sets    []SetsRow
	// Retouched and Dynamic are experiment r (retouched.go).
	Retouched []RetouchedRow
	Dynamic   []DynamicRow
	// FormatsParquet is experiment g's Parquet half (formats_parquet.go).
	FormatsParquet []FormatsParquetRow
	Growth         []GrowthRow
	// FormatsKV is experiment g's LevelDB and Pebble filter formats.
	FormatsKV []FormatsKVRow
	// FormatsClickHouse is experiment g's ClickHouse skip indexes.
	FormatsClickHouse []FormatsClickHouseRow
	// Cache is experiment n (cache.go), Threads experiment t (threads.go).
	Cache   []CacheRow
	Threads []ThreadsRow
	// Notes say which entries an experiment left out and why.
	Notes []string
	// Interrupted is set when the run was cancelled before the end.
	Interrupted bool
}

// note records a note once.
func (r *Results) note(s string) {
	if !slices.Contains(r.Notes, s) {
		r.Notes = append(r.Notes, s)
	}
}
