package hadoop

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// The golden set in testdata was written by Hadoop's own classes (see
// testdata/PROVENANCE.md). This file loads it; golden_*_test.go check it.

const goldenCases = 278 // cases in testdata/index.json

type keyRange struct {
	List  string `json:"list"`
	Start int    `json:"start"`
	Count int    `json:"count"`
}

type goldenProbe struct {
	Key              string `json:"key"`
	Source           string `json:"source"`
	Member           bool   `json:"member"`
	ApproximateCount *int   `json:"approximateCount"`
}

type goldenOp struct {
	Op    string   `json:"op"`
	Keys  keyRange `json:"keys"`
	Times int      `json:"times"`
}

type goldenFP struct {
	Key       string  `json:"key"`
	Weight    float64 `json:"weight"`
	Positions []int   `json:"positions"`
}

type goldenClearing struct {
	Key          string  `json:"key"`
	Weight       float64 `json:"weight"`
	MemberBefore bool    `json:"member_before"`
	Action       string  `json:"action"`
	RandomDraw   *int    `json:"random_draw"`
	ClearedIndex *int    `json:"cleared_index"`
	BitWasSet    *bool   `json:"bit_was_set"`
	MemberAfter  *bool   `json:"member_after"`
}

type goldenCase struct {
	Class           string        `json:"class"`
	Name            string        `json:"name"`
	Bin             string        `json:"bin"`
	BinLen          int           `json:"bin_len"`
	VectorSize      int           `json:"vectorSize"`
	NbHash          int           `json:"nbHash"`
	HashType        HashType      `json:"hashType"`
	KeysAdded       *keyRange     `json:"keys_added"`
	KeysAddedHex    []string      `json:"keys_added_hex"`
	Probes          []goldenProbe `json:"probes"`
	MemberAddedBits string        `json:"member_added_bits"`
	MemberProbeBits string        `json:"member_probe_bits"`

	// CountingBloomFilter
	Operations    []goldenOp `json:"operations"`
	SaturatedKeys []struct {
		Key              string `json:"key"`
		ApproximateCount int    `json:"approximateCount"`
		Positions        []int  `json:"positions"`
	} `json:"saturated_keys"`

	// DynamicBloomFilter
	NR              int `json:"nr"`
	Rows            int `json:"rows"`
	CurrentNbRecord int `json:"currentNbRecord"`

	// RetouchedBloomFilter
	KeysAddedWeightAll *float64              `json:"keys_added_weight_all"`
	KeysAddedWeights   []float64             `json:"keys_added_weights"`
	FalsePositives     []goldenFP            `json:"false_positives_recorded"`
	Scheme             string                `json:"scheme"`
	SchemeCode         *int                  `json:"scheme_code"`
	Random             *struct{ Seed int64 } `json:"random"`
	Clearing           []goldenClearing      `json:"clearing"`
	MemberFPBits       string                `json:"member_fp_bits"`
	ErrorCall          *struct {
		Key        string `json:"key"`
		SchemeCode int    `json:"scheme_code"`
	} `json:"error_call"`

	// ops and legacy
	Operation      string    `json:"operation"`
	AKeys          *keyRange `json:"A_keys"`
	BKeys          *keyRange `json:"B_keys"`
	MemberKeysNote string    `json:"member_keys_note"`
	InputBin       string    `json:"input_bin"`
}

type goldenKeys struct {
	Add, Probe, Edge [][]byte
}

var golden struct {
	once  sync.Once
	err   error
	keys  goldenKeys
	cases []*goldenCase
}

func unhexAll(t testing.TB, hs []string) [][]byte {
	out := make([][]byte, len(hs))
	for i, h := range hs {
		out[i] = unhex(t, h)
	}
	return out
}

func unhex(t testing.TB, h string) []byte {
	b, err := hex.DecodeString(h)
	if err != nil {
		t.Fatalf("bad hex %q: %v", h, err)
	}
	return b
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(filepath.Join("testdata", path))
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// loadGolden reads index.json, keys.json and every case description.
func loadGolden(t testing.TB) (goldenKeys, []*goldenCase) {
	t.Helper()
	golden.once.Do(func() {
		var raw struct{ Add, Probe, Edge []string }
		if golden.err = readJSON("keys.json", &raw); golden.err != nil {
			return
		}
		var keys goldenKeys
		for _, l := range []struct {
			dst *[][]byte
			src []string
		}{{&keys.Add, raw.Add}, {&keys.Probe, raw.Probe}, {&keys.Edge, raw.Edge}} {
			for _, h := range l.src {
				b, err := hex.DecodeString(h)
				if err != nil {
					golden.err = err
					return
				}
				*l.dst = append(*l.dst, b)
			}
		}
		var index struct {
			Cases []struct{ Name, Class, JSON, Bin string }
		}
		if golden.err = readJSON("index.json", &index); golden.err != nil {
			return
		}
		for _, c := range index.Cases {
			gc := new(goldenCase)
			if golden.err = readJSON(c.JSON, gc); golden.err != nil {
				return
			}
			golden.cases = append(golden.cases, gc)
		}
		golden.keys = keys
	})
	if golden.err != nil {
		t.Fatalf("golden data: %v", golden.err)
	}
	return golden.keys, golden.cases
}

func (k goldenKeys) list(t testing.TB, r keyRange) [][]byte {
	var l [][]byte
	switch r.List {
	case "add":
		l = k.Add
	case "probe":
		l = k.Probe
	case "edge":
		l = k.Edge
	default:
		t.Fatalf("unknown key list %q", r.List)
	}
	if r.Start < 0 || r.Count < 0 || r.Start+r.Count > len(l) {
		t.Fatalf("key range %+v outside list of %d", r, len(l))
	}
	return l[r.Start : r.Start+r.Count]
}

// added returns the keys a case added, checking the inline hex when given.
func (c *goldenCase) added(t testing.TB, k goldenKeys) [][]byte {
	if c.KeysAdded == nil {
		t.Fatalf("%s: no keys_added", c.Name)
	}
	keys := k.list(t, *c.KeysAdded)
	if c.KeysAddedHex != nil {
		inline := unhexAll(t, c.KeysAddedHex)
		if len(inline) != len(keys) {
			t.Fatalf("%s: %d inline keys, range has %d", c.Name, len(inline), len(keys))
		}
		for i := range keys {
			if !bytes.Equal(inline[i], keys[i]) {
				t.Fatalf("%s: inline key %d differs from keys.json", c.Name, i)
			}
		}
	}
	return keys
}

func testdata(t testing.TB, path string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", path))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (c *goldenCase) bin(t testing.TB) []byte {
	b := testdata(t, c.Bin)
	if len(b) != c.BinLen {
		t.Fatalf("%s: %d bytes, json says %d", c.Bin, len(b), c.BinLen)
	}
	return b
}

// membershipKeys returns the keys member_added_bits describes.
func (c *goldenCase) membershipKeys(t testing.TB, k goldenKeys) [][]byte {
	switch {
	case c.MemberKeysNote != "":
		var a0, a1, b0, b1 int
		if _, err := fmt.Sscanf(c.MemberKeysNote, "member_added_bits covers add[%d..%d] followed by add[%d..%d]",
			&a0, &a1, &b0, &b1); err != nil {
			t.Fatalf("member_keys_note %q: %v", c.MemberKeysNote, err)
		}
		return append(append([][]byte{}, k.Add[a0:a1+1]...), k.Add[b0:b1+1]...)
	case c.Operation != "":
		return k.Add[:len(c.MemberAddedBits)]
	}
	return c.added(t, k)
}
