package dataset

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"strconv"
	"testing"
)

// testdata/<dist>-2000.txt are the first 2000 lines a C++17 program wrote
// with libstdc++ (g++ 12): default_random_engine(2022), the seed's three
// distributions, `std::cout << v << "\n"`.
func TestTextKeysMatchLibstdcxx(t *testing.T) {
	for _, d := range Distributions {
		want := readLines(t, "testdata/"+d.String()+"-2000.txt")
		keys, err := Generate(d, len(want), Text, SeedRNG)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range want {
			if got := string(keys.Key(i)); got != w {
				t.Fatalf("%v key %d = %q, libstdc++ wrote %q", d, i, got, w)
			}
		}
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) == 0 {
		t.Fatalf("%s is empty", path)
	}
	return lines
}

func TestDistributionMoments(t *testing.T) {
	const n = 200_000
	cases := []struct {
		d          Distribution
		mean, sd   float64
		minV, maxV float64
	}{
		{Normal, 0, 1, math.Inf(-1), math.Inf(1)},
		{Uniform, 5, 10 / math.Sqrt(12), 0, 10},
		{Exponential, 0.01, 0.01, 0, math.Inf(1)},
	}
	for _, c := range cases {
		src := NewSource(c.d, SeedRNG)
		var sum, sq float64
		for range n {
			v := src.Next()
			if v < c.minV || v >= c.maxV {
				t.Fatalf("%v value %v outside [%v, %v)", c.d, v, c.minV, c.maxV)
			}
			sum += v
			sq += v * v
		}
		mean := sum / n
		sd := math.Sqrt(sq/n - mean*mean)
		// The sample mean is within 5 standard errors of the true mean.
		if se := c.sd / math.Sqrt(n); math.Abs(mean-c.mean) > 5*se {
			t.Errorf("%v mean %v, want %v ± %v", c.d, mean, c.mean, 5*se)
		}
		if math.Abs(sd-c.sd) > 0.02*c.sd {
			t.Errorf("%v sd %v, want %v ± 2%%", c.d, sd, c.sd)
		}
	}
}

func TestGenerateDeterministic(t *testing.T) {
	for _, f := range []Format{Text, Binary} {
		a, _ := Generate(Exponential, 1000, f, SeedRNG)
		b, _ := Generate(Exponential, 1000, f, SeedRNG)
		for i := range a.Len() {
			if !bytes.Equal(a.Key(i), b.Key(i)) {
				t.Fatalf("%v key %d differs between runs", f, i)
			}
		}
	}
}

func TestBinaryKeysAreFloatBits(t *testing.T) {
	keys, _ := Generate(Normal, 100, Binary, SeedRNG)
	src := NewSource(Normal, SeedRNG)
	ints := keys.Uint64s(0, keys.Len())
	for i := range keys.Len() {
		v := src.Next()
		if ints[i] != math.Float64bits(v) {
			t.Fatalf("key %d int %x, want bits of %v", i, ints[i], v)
		}
		var le [8]byte
		for b := range 8 {
			le[b] = byte(ints[i] >> (8 * b))
		}
		if !bytes.Equal(keys.Key(i), le[:]) {
			t.Fatalf("key %d bytes %x are not the little-endian int %x", i, keys.Key(i), ints[i])
		}
	}
}

// Absent keys must never equal a generated key: check against a set of
// 300k generated keys of every distribution and format.
func TestAbsentKeysNeverGenerated(t *testing.T) {
	for _, f := range []Format{Text, Binary} {
		for _, d := range Distributions {
			keys, _ := Generate(d, 300_000, f, SeedRNG)
			present := make(map[string]bool, keys.Len())
			for i := range keys.Len() {
				present[string(keys.Key(i))] = true
			}
			absent, err := Absent(d, 100_000, f)
			if err != nil {
				t.Fatal(err)
			}
			for i := range absent.Len() {
				if present[string(absent.Key(i))] {
					t.Fatalf("%v %v absent key %q was generated", d, f, absent.Key(i))
				}
			}
			if f == Text {
				if _, err := strconv.ParseFloat(string(absent.Key(0)), 64); err != nil {
					t.Errorf("%v absent key %q is not a number: %v", d, absent.Key(0), err)
				}
			}
		}
	}
}

func TestDistinctCounts(t *testing.T) {
	keys, _ := Generate(Uniform, 50_000, Text, SeedRNG)
	checkpoints := []int{0, 1, 10_000, 50_000}
	got := keys.DistinctCounts(checkpoints)
	for ci, c := range checkpoints {
		set := map[string]bool{}
		for i := range c {
			set[string(keys.Key(i))] = true
		}
		if got[ci] != len(set) {
			t.Errorf("distinct among %d = %d, want %d", c, got[ci], len(set))
		}
	}
}

func TestWrite(t *testing.T) {
	keys, _ := Generate(Normal, 3, Text, SeedRNG)
	var buf bytes.Buffer
	if err := keys.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if want := "-0.0869598\n0.373009\n0.852645\n"; buf.String() != want {
		t.Errorf("Write = %q, want %q", buf.String(), want)
	}
}

func TestParse(t *testing.T) {
	for _, d := range Distributions {
		if got, err := ParseDistribution(d.String()); err != nil || got != d {
			t.Errorf("ParseDistribution(%q) = %v, %v", d, got, err)
		}
	}
	if _, err := ParseDistribution("poisson"); err == nil {
		t.Error("ParseDistribution accepted poisson")
	}
	if _, err := ParseFormat("json"); err == nil {
		t.Error("ParseFormat accepted json")
	}
}
