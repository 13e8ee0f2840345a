package hadoop

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
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

// tester is what every filter type answers.
type tester interface {
	Test(key []byte) bool
	TestKeys(keys [][]byte, out []bool) int
}

// checkAnswers compares every recorded membership answer with f's, per key
// and in one batch; it returns how many answers it compared.
func checkAnswers(t *testing.T, f tester, c *goldenCase, k goldenKeys) int {
	t.Helper()
	n := 0
	for _, p := range c.Probes {
		if got := f.Test(unhex(t, p.Key)); got != p.Member {
			t.Errorf("probe %s (%s): Test = %v, Hadoop %v", p.Source, p.Key, got, p.Member)
		}
		n++
	}
	n += checkBits(t, f, "added", c.membershipKeys(t, k), c.MemberAddedBits)
	n += checkBits(t, f, "probe", k.Probe, c.MemberProbeBits)
	return n
}

func checkBits(t *testing.T, f tester, what string, keys [][]byte, bits string) int {
	t.Helper()
	if len(keys) != len(bits) {
		t.Fatalf("%s: %d keys, %d answers", what, len(keys), len(bits))
	}
	out := make([]bool, len(keys))
	hits := f.TestKeys(keys, out)
	want := 0
	for i, key := range keys {
		w := bits[i] == '1'
		if w {
			want++
		}
		if got := f.Test(key); got != w {
			t.Errorf("%s[%d] %x: Test = %v, Hadoop %v", what, i, key, got, w)
		}
		if out[i] != w {
			t.Errorf("%s[%d] %x: TestKeys = %v, Hadoop %v", what, i, key, out[i], w)
		}
	}
	if hits != want {
		t.Errorf("%s: TestKeys counted %d hits, Hadoop %d", what, hits, want)
	}
	return len(keys)
}

// written returns what f.WriteTo writes.
func written(t *testing.T, f io.WriterTo) []byte {
	t.Helper()
	var buf bytes.Buffer
	n, err := f.WriteTo(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(buf.Len()) {
		t.Fatalf("WriteTo reported %d bytes, wrote %d", n, buf.Len())
	}
	return buf.Bytes()
}

// sameBytes fails unless got equals Hadoop's bytes; it names the first
// differing offset.
func sameBytes(t *testing.T, what string, got, want []byte) bool {
	t.Helper()
	if bytes.Equal(got, want) {
		return true
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	t.Errorf("%s: %d bytes, Hadoop wrote %d; first difference at offset %d", what, len(got), len(want), i)
	return false
}

// tally counts the cases each stage passed; TestGolden requires all.
type tally struct {
	mu                      sync.Mutex
	read, answered, rebuilt int
}

func (c *tally) add(t *testing.T, read, answered, rebuilt bool) {
	if t.Failed() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if read {
		c.read++
	}
	if answered {
		c.answered++
	}
	if rebuilt {
		c.rebuilt++
	}
}

func TestGolden(t *testing.T) {
	keys, cases := loadGolden(t)
	if len(cases) != goldenCases {
		t.Fatalf("index.json lists %d cases, want %d", len(cases), goldenCases)
	}
	var n tally
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			switch c.Class {
			case "BloomFilter":
				goldenBloom(t, c, keys, &n)
			case "CountingBloomFilter":
				goldenCounting(t, c, keys, &n)
			case "DynamicBloomFilter":
				goldenDynamic(t, c, keys, &n)
			case "RetouchedBloomFilter":
				goldenRetouched(t, c, keys, &n)
			default:
				t.Fatalf("unknown class %q", c.Class)
			}
		})
	}
	t.Logf("golden cases: %d read and written back byte for byte, %d answered, %d rebuilt byte for byte",
		n.read, n.answered, n.rebuilt)
	if n.read != goldenCases || n.answered != goldenCases || n.rebuilt != goldenCases {
		t.Errorf("want all %d cases read, answered and rebuilt", goldenCases)
	}
}

// goldenFilter is what every type offers the golden checks.
type goldenFilter interface {
	tester
	io.WriterTo
	VectorSize() int
	NbHash() int
	HashType() HashType
}

// readGolden decodes a case's input (its .bin, or the old-layout stream it
// names) with read, checks the shape, that writing it back gives Hadoop's
// .bin, and every recorded membership answer. It returns the filter,
// Hadoop's bytes and whether the written bytes matched.
func readGolden[F goldenFilter](t *testing.T, c *goldenCase, k goldenKeys, read func(io.Reader) (F, error)) (F, []byte, bool) {
	t.Helper()
	want := c.bin(t)
	input := want
	if c.InputBin != "" {
		input = testdata(t, c.InputBin)
	}
	f, err := read(bytes.NewReader(input))
	if err != nil {
		t.Fatal(err)
	}
	if f.VectorSize() != c.VectorSize || f.NbHash() != c.NbHash || f.HashType() != c.HashType {
		t.Fatalf("read shape (%d, %d, %v), Hadoop (%d, %d, %v)", f.VectorSize(), f.NbHash(), f.HashType(),
			c.VectorSize, c.NbHash, c.HashType)
	}
	same := sameBytes(t, "written back", written(t, f), want)
	checkAnswers(t, f, c, k)
	return f, want, same
}

// setOps are the operations BloomFilter and DynamicBloomFilter share.
type setOps[T any] interface {
	And(T) error
	Or(T) error
	Xor(T) error
	Not()
}

// applyOp performs an ops case's operation on a, with b built on demand.
func applyOp[T setOps[T]](t *testing.T, op string, a T, b func() T) T {
	t.Helper()
	var err error
	switch op {
	case "A.and(B)":
		err = a.And(b())
	case "A.or(B)":
		err = a.Or(b())
	case "A.xor(B)":
		err = a.Xor(b())
	case "A.not()":
		a.Not()
	default:
		t.Fatalf("unknown operation %q", op)
	}
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// addAll adds keys with add, failing the test on an error.
func addAll(t *testing.T, add func([]byte) error, keys [][]byte) {
	t.Helper()
	for _, key := range keys {
		if err := add(key); err != nil {
			t.Fatalf("Add %x: %v", key, err)
		}
	}
}
