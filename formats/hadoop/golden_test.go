package hadoop

import (
	"bytes"
	"io"
	"sync"
	"testing"
)

// The checks every golden case runs; golden_data_test.go loads the cases.

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
