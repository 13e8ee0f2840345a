package filters

import (
	"encoding"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/bench/dataset"
	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/classic"
	"github.com/filterengine/filterengine/internal/store"
	"github.com/filterengine/filterengine/shifting"
)

func intBatch(first uint64, n int) Batch {
	keys := dataset.Integers(first, n)
	return Batch{Keys: keys.Views(nil, 0, n), Ints: keys.Uint64s(0, n)}
}

// Every entry finds every key it was given, through the integer form
// and, for dynamic filters, through the byte form alone: the adapters
// drive both paths to the same answers.
func TestEntriesHaveNoFalseNegatives(t *testing.T) {
	const n = 20_000
	b := intBatch(0, n)
	bytesOnly := Batch{Keys: b.Keys}
	for _, e := range All() {
		var f Filter
		var err error
		if e.Static() {
			f, err = e.Build(b)
		} else {
			f, err = e.NewNP(n, 0.01)
			if err == nil {
				f.Add(b)
			}
		}
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if hits := f.Test(b); hits != n {
			t.Errorf("%s: %d of %d members found through integer keys", e.Name, hits, n)
		}
		if !e.Static() {
			if hits := f.Test(bytesOnly); hits != n {
				t.Errorf("%s: %d of %d members found through byte keys", e.Name, hits, n)
			}
		}
		if f.Bytes() == 0 {
			t.Errorf("%s: Bytes() = 0", e.Name)
		}
	}
}

// NewMK builds about the asked geometry: k exactly, m within one cache
// line (blocked rounds up to lines, BoomFilters reaches m through n and p).
func TestNewMKGeometry(t *testing.T) {
	const m, k = 100_000, 10
	for _, e := range All() {
		if e.NewMK == nil {
			continue
		}
		f, err := e.NewMK(m, k)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		gm, gk := f.Params()
		if gk != k || gm+512 < m || gm > m+512 {
			t.Errorf("%s: NewMK(%d, %d) built m = %d, k = %d", e.Name, m, k, gm, gk)
		}
	}
}

func TestBoomNP(t *testing.T) {
	for _, k := range []uint32{1, 2, 7, 10, 16} {
		n, p := boomNP(1_000_000, k)
		if n == 0 || p <= 0 || p >= 1 {
			t.Fatalf("boomNP(1e6, %d) = %d, %v", k, n, p)
		}
	}
}

func TestSelect(t *testing.T) {
	all, err := Select("all")
	if err != nil || len(all) != len(All()) {
		t.Fatalf("Select(all) = %d entries, %v", len(all), err)
	}
	peersOnly, err := Select("peers")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range peersOnly {
		if e.Kind != Peer {
			t.Errorf("Select(peers) returned %s", e.Name)
		}
	}
	two, err := Select("bloom/v3, classic")
	if err != nil || len(two) != 2 || two[0].Name != "classic" {
		t.Errorf("Select(bloom/v3, classic) = %v, %v; want classic then bloom/v3", Names(two), err)
	}
	if _, err := Select("classic,cuckoo"); err == nil || !strings.Contains(err.Error(), "cuckoo") {
		t.Errorf("Select with an unknown name: %v", err)
	}
}

// Batch.Keys[i] must be the little-endian bytes of Batch.Ints[i]; the
// integer calls of our families rely on it.
func TestIntBatchBytesAreLittleEndian(t *testing.T) {
	b := intBatch(5, 3)
	for i, k := range b.Ints {
		if binary.LittleEndian.Uint64(b.Keys[i]) != k {
			t.Fatalf("key %d bytes %x are not %x", i, b.Keys[i], k)
		}
	}
}

// A Remover removes every key it holds, through integer and byte keys.
func TestRemoversRemoveMembers(t *testing.T) {
	const n = 10_000
	ints := intBatch(0, n)
	bytesOnly := Batch{Keys: intBatch(n, n).Keys}
	for _, e := range All() {
		if e.Static() {
			continue
		}
		f, err := e.NewNP(2*n, 0.01)
		if err != nil {
			t.Fatal(err)
		}
		rm, ok := f.(Remover)
		if !ok {
			continue
		}
		f.Add(ints)
		f.Add(bytesOnly)
		if got := rm.Remove(ints); got != n {
			t.Errorf("%s: removed %d of %d integer keys", e.Name, got, n)
		}
		if got := rm.Remove(bytesOnly); got != n {
			t.Errorf("%s: removed %d of %d byte keys", e.Name, got, n)
		}
	}
}

// Bytes is the memory the family itself serializes as its table: the
// envelope's payload. A registry entry that guesses the layout (as one did
// when counting's lines changed size) fails here.
func TestBytesMatchSerializedTable(t *testing.T) {
	for _, e := range All() {
		if e.Kind != Ours || e.NewNP == nil {
			continue
		}
		f, err := e.NewNP(100_000, 0.01)
		if err != nil {
			t.Fatal(err)
		}
		var under any
		switch a := f.(type) {
		case *countingFilter:
			under = a.f
		case *batched[*classic.Filter]:
			under = a.f
		case *batched[*blocked.Filter]:
			under = a.f
		case *batched[*shifting.Filter]:
			under = a.f
		default:
			continue // spatial also serializes its statistics
		}
		data, err := under.(encoding.BinaryMarshaler).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		table := uint64(len(data) - store.HeaderSize)
		// Padding words (shifting's tail) may make the table a little
		// larger than the bits the filter uses, never smaller.
		if f.Bytes() > table || table > f.Bytes()+64 {
			t.Errorf("%s: Bytes() = %d, serialized table %d bytes", e.Name, f.Bytes(), table)
		}
	}
}

// Every adapter that experiments fill untimed and reset must come back
// empty: a Reset that kept keys would make the timed Add a refill and its
// FPR that of a fuller filter.
func TestResettersEmpty(t *testing.T) {
	keys := make([][]byte, 2000)
	for i := range keys {
		keys[i] = []byte{byte(i), byte(i >> 8), 1, 2, 3, 4, 5, 6}
	}
	resetters := 0
	for _, e := range All() {
		if e.Static() {
			continue
		}
		f, err := e.NewNP(2000, 0.01)
		if err != nil {
			t.Fatal(err)
		}
		r, ok := f.(Resetter)
		if !ok {
			continue
		}
		resetters++
		f.AddEach(Batch{Keys: keys})
		r.Reset()
		if hits := f.TestEach(Batch{Keys: keys}); hits > 200 {
			t.Errorf("%s: %d of %d keys present after Reset", e.Name, hits, len(keys))
		}
	}
	// ours but spatial (classic, blocked, shifting twice, counting) and
	// the modeled peers (bloom/v3, boom/classic, boom/counting)
	if resetters != 8 {
		t.Errorf("%d adapters reset in place, want 8", resetters)
	}
}
