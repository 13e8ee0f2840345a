package blocked_test

import (
	"encoding/json"
	"fmt"

	"github.com/filterengine/filterengine/blocked"
)

// store stands for the database behind a cache: a lookup of it is the
// expensive step a guard saves.
type store struct {
	rows    map[uint64]string
	lookups int
}

func (s *store) get(id uint64) (string, bool) {
	s.lookups++
	v, ok := s.rows[id]
	return v, ok
}

// A cache-penetration guard: requests for keys that do not exist miss the
// cache and, without a guard, every one of them reaches the database. A
// filter holding every key the database has answers "certainly absent"
// for almost all of them in one line's probe, so only the members (and
// about p of the others) pay a lookup. The filter is built once from the
// table's keys, in batch, and kept beside the cache.
func Example_cachePenetrationGuard() {
	db := &store{rows: map[uint64]string{}}
	ids := make([]uint64, 10_000)
	for i := range ids {
		ids[i] = uint64(i) * 7
		db.rows[ids[i]] = fmt.Sprint("user ", ids[i])
	}
	guard, err := blocked.New(uint64(len(ids)), 0.001)
	if err != nil {
		panic(err)
	}
	guard.AddUint64s(ids)

	lookup := func(id uint64) (string, bool) {
		if !guard.TestUint64(id) {
			return "", false // certainly absent: the database is spared
		}
		return db.get(id)
	}

	v, ok := lookup(700)
	fmt.Println(v, ok)
	// 10,000 requests for ids no row has (a scan, or an attack).
	found := 0
	for id := uint64(1_000_000); id < 1_010_000; id++ {
		if _, ok := lookup(id*7 + 1); ok {
			found++
		}
	}
	fmt.Println("found:", found, "database lookups below 30:", db.lookups < 30)
	// Output:
	// user 700 true
	// found: 0 database lookups below 30: true
}

// Saved state travels as text too: MarshalText is the binary form in
// base64, so a filter inside a struct goes through encoding/json (and any
// other text codec) and comes back with the same bits.
func ExampleFilter_MarshalText() {
	type snapshot struct {
		Version int
		Seen    *blocked.Filter
	}
	f, _ := blocked.New(1000, 0.01)
	f.AddString("order-17")

	js, err := json.Marshal(snapshot{Version: 3, Seen: f})
	if err != nil {
		panic(err)
	}
	var back snapshot
	if err := json.Unmarshal(js, &back); err != nil {
		panic(err)
	}
	fmt.Println(back.Version, back.Seen.TestString("order-17"), back.Seen.Equal(f))
	// Output:
	// 3 true true
}

// String prints the parameters on one line, never the bits.
func ExampleFilter_String() {
	f, _ := blocked.New(100_000, 0.01)
	fmt.Println(f)
	fmt.Printf("%.4f%%\n", 100*f.ModelFPR(100_000))
	// Output:
	// blocked.Filter{m: 996864, k: 6, lines: 1947, seed: 0x0, heap}
	// 0.9990%
}
