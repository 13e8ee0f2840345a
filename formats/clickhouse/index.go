package clickhouse

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Kind names one of the three Bloom-filter skip index types.
type Kind int

const (
	// TokenBF is tokenbf_v1(size_bytes, hashes, seed).
	TokenBF Kind = iota + 1
	// NgramBF is ngrambf_v1(n, size_bytes, hashes, seed).
	NgramBF
	// BloomFilterIndex is bloom_filter([false_positive_rate]).
	BloomFilterIndex
)

func (k Kind) String() string {
	switch k {
	case TokenBF:
		return "tokenbf_v1"
	case NgramBF:
		return "ngrambf_v1"
	case BloomFilterIndex:
		return "bloom_filter"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// ErrIndexType is wrapped by every error ParseIndex returns.
var ErrIndexType = errors.New("clickhouse: bad index type")

// DefaultFalsePositive is bloom_filter's false-positive rate when the TYPE
// clause gives none.
const DefaultFalsePositive = 0.025

// Index is a parsed TYPE clause: the parameters every granule of the index
// shares. An Index is immutable and safe for concurrent use.
type Index struct {
	kind      Kind
	n         int    // ngrambf_v1
	sizeBytes int    // tokenbf_v1, ngrambf_v1
	hashes    uint64 // tokenbf_v1, ngrambf_v1
	seed      uint64 // tokenbf_v1, ngrambf_v1
	fpr       float64
	bitsRow   int // bloom_filter
	k         int // bloom_filter
}

// Kind is the index type.
func (ix *Index) Kind() Kind { return ix.kind }

// N is ngrambf_v1's n-gram length in code points, 0 for the other types.
func (ix *Index) N() int { return ix.n }

// SizeBytes is the size of each column's filter in a text index granule
// (tokenbf_v1, ngrambf_v1), 0 for bloom_filter, whose size varies by granule.
func (ix *Index) SizeBytes() int { return ix.sizeBytes }

// Hashes is the number of bits each token sets in a text index, or k, the
// number of bits each value sets in bloom_filter.
func (ix *Index) Hashes() uint64 {
	if ix.kind == BloomFilterIndex {
		return uint64(ix.k)
	}
	return ix.hashes
}

// Seed is a text index's seed, 0 for bloom_filter.
func (ix *Index) Seed() uint64 { return ix.seed }

// FalsePositive is bloom_filter's requested false-positive rate, 0 for the
// text indexes.
func (ix *Index) FalsePositive() float64 { return ix.fpr }

// BitsPerValue is bloom_filter's bits per distinct value, 0 for the text
// indexes.
func (ix *Index) BitsPerValue() int { return ix.bitsRow }

// String is the TYPE clause in ClickHouse's canonical spelling.
func (ix *Index) String() string {
	switch ix.kind {
	case TokenBF:
		return fmt.Sprintf("tokenbf_v1(%d, %d, %d)", ix.sizeBytes, ix.hashes, ix.seed)
	case NgramBF:
		return fmt.Sprintf("ngrambf_v1(%d, %d, %d, %d)", ix.n, ix.sizeBytes, ix.hashes, ix.seed)
	}
	return fmt.Sprintf("bloom_filter(%s)", strconv.FormatFloat(ix.fpr, 'g', -1, 64))
}

// ParseIndex parses the TYPE clause of a skip index as written in CREATE
// TABLE or ALTER TABLE ... ADD INDEX: "tokenbf_v1(256, 3, 0)",
// "ngrambf_v1(3, 512, 2, 0)", "bloom_filter", "bloom_filter()" or
// "bloom_filter(0.01)". Type names are case-insensitive, as in ClickHouse.
// It applies ClickHouse's argument checks and returns an error wrapping
// ErrIndexType for what ClickHouse refuses: a wrong argument count, an
// argument of a text index that is not an unsigned integer, n < 1, a zero
// size or hash count, a size over MaxFilterBytes, a false-positive rate
// outside (0, 1).
func ParseIndex(typ string) (*Index, error) {
	name, args, err := splitType(typ)
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(name) {
	case "tokenbf_v1":
		if len(args) != 3 {
			return nil, typeErr(typ, "`tokenbf` index must have exactly 3 arguments")
		}
		v, err := uintArgs(typ, args)
		if err != nil {
			return nil, err
		}
		ix := &Index{kind: TokenBF}
		return ix, ix.setFilterParams(typ, v[0], v[1], v[2])
	case "ngrambf_v1":
		if len(args) != 4 {
			return nil, typeErr(typ, "`ngrambf` index must have exactly 4 arguments")
		}
		v, err := uintArgs(typ, args)
		if err != nil {
			return nil, err
		}
		if v[0] < 1 {
			return nil, typeErr(typ, "ngram length must be at least 1")
		}
		if v[0] > math.MaxInt32 {
			return nil, typeErr(typ, "ngram length too large")
		}
		ix := &Index{kind: NgramBF, n: int(v[0])}
		return ix, ix.setFilterParams(typ, v[1], v[2], v[3])
	case "bloom_filter":
		fpr := DefaultFalsePositive
		switch len(args) {
		case 0:
		case 1:
			f, ok := floatArg(args[0])
			if !ok || !(f > 0 && f < 1) {
				return nil, typeErr(typ, "the BloomFilter false positive must be a double number between 0 and 1")
			}
			fpr = f
		default:
			return nil, typeErr(typ, "BloomFilter index cannot have more than one parameter")
		}
		bits, k := BestPractices(fpr)
		return &Index{kind: BloomFilterIndex, fpr: fpr, bitsRow: bits, k: k}, nil
	}
	return nil, typeErr(typ, "unknown index type "+strconv.Quote(name)+" (want tokenbf_v1, ngrambf_v1 or bloom_filter)")
}

func (ix *Index) setFilterParams(typ string, size, hashes, seed uint64) error {
	switch {
	case size == 0:
		return typeErr(typ, "the size of bloom filter cannot be zero")
	case hashes == 0:
		return typeErr(typ, "the number of hash functions for bloom filter cannot be zero")
	case size > MaxFilterBytes:
		return typeErr(typ, fmt.Sprintf("the size of bloom filter cannot be more than %d", MaxFilterBytes))
	}
	ix.sizeBytes, ix.hashes, ix.seed = int(size), hashes, seed
	return nil
}

func typeErr(typ, msg string) error {
	return fmt.Errorf("%w %q: %s", ErrIndexType, typ, msg)
}

// splitType splits "name(a, b)" into name and trimmed arguments; "name" and
// "name()" have none.
func splitType(typ string) (string, []string, error) {
	s := strings.TrimSpace(typ)
	open := strings.IndexByte(s, '(')
	if open < 0 {
		if s == "" || strings.ContainsAny(s, ") ,") {
			return "", nil, typeErr(typ, "expected name or name(arguments)")
		}
		return s, nil, nil
	}
	if !strings.HasSuffix(s, ")") || strings.Count(s, "(") != 1 || strings.Count(s, ")") != 1 {
		return "", nil, typeErr(typ, "unbalanced parentheses")
	}
	name := strings.TrimSpace(s[:open])
	if name == "" {
		return "", nil, typeErr(typ, "missing index type name")
	}
	inner := strings.TrimSpace(s[open+1 : len(s)-1])
	if inner == "" {
		return name, nil, nil
	}
	args := strings.Split(inner, ",")
	for i := range args {
		args[i] = strings.TrimSpace(args[i])
		if args[i] == "" {
			return "", nil, typeErr(typ, "empty argument")
		}
	}
	return name, args, nil
}

// uintArgs reads unsigned integer literals (decimal, or hexadecimal with 0x)
// that fit in 64 bits, as ClickHouse's UInt64 fields.
func uintArgs(typ string, args []string) ([]uint64, error) {
	out := make([]uint64, len(args))
	for i, a := range args {
		var v uint64
		var err error
		if len(a) > 2 && (a[:2] == "0x" || a[:2] == "0X") {
			v, err = strconv.ParseUint(a[2:], 16, 64)
		} else {
			v, err = strconv.ParseUint(a, 10, 64)
		}
		if err != nil {
			return nil, typeErr(typ, "all parameters to *bf_v1 index must be unsigned integers")
		}
		out[i] = v
	}
	return out, nil
}

func floatArg(a string) (float64, bool) {
	for i := 0; i < len(a); i++ {
		c := a[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(a, 64)
	return f, err == nil
}

// fprTable is calculationBestPractices' probability table from ClickHouse's
// Interpreters/BloomFilterHash.h: row b, column k is the false-positive rate
// of b bits per value and k hashes. ClickHouse holds the entries as long
// double literals; they are kept here as decimals and compared exactly.
var fprTable = [][]string{
	{"1.0"},
	{"1.0", "1.0"},
	{"1.0", "0.393", "0.400"},
	{"1.0", "0.283", "0.237", "0.253"},
	{"1.0", "0.221", "0.155", "0.147", "0.160"},
	{"1.0", "0.181", "0.109", "0.092", "0.092", "0.101"},
	{"1.0", "0.154", "0.0804", "0.0609", "0.0561", "0.0578", "0.0638"},
	{"1.0", "0.133", "0.0618", "0.0423", "0.0359", "0.0347", "0.0364"},
	{"1.0", "0.118", "0.0489", "0.0306", "0.024", "0.0217", "0.0216", "0.0229"},
	{"1.0", "0.105", "0.0397", "0.0228", "0.0166", "0.0141", "0.0133", "0.0135", "0.0145"},
	{"1.0", "0.0952", "0.0329", "0.0174", "0.0118", "0.00943", "0.00844", "0.00819", "0.00846"},
	{"1.0", "0.0869", "0.0276", "0.0136", "0.00864", "0.0065", "0.00552", "0.00513", "0.00509"},
	{"1.0", "0.08", "0.0236", "0.0108", "0.00646", "0.00459", "0.00371", "0.00329", "0.00314"},
	{"1.0", "0.074", "0.0203", "0.00875", "0.00492", "0.00332", "0.00255", "0.00217", "0.00199", "0.00194"},
	{"1.0", "0.0689", "0.0177", "0.00718", "0.00381", "0.00244", "0.00179", "0.00146", "0.00129", "0.00121", "0.0012"},
	{"1.0", "0.0645", "0.0156", "0.00596", "0.003", "0.00183", "0.00128", "0.001", "0.000852", "0.000775", "0.000744"},
	{"1.0", "0.0606", "0.0138", "0.005", "0.00239", "0.00139", "0.000935", "0.000702", "0.000574", "0.000505", "0.00047", "0.000459"},
	{"1.0", "0.0571", "0.0123", "0.00423", "0.00193", "0.00107", "0.000692", "0.000499", "0.000394", "0.000335", "0.000302", "0.000287", "0.000284"},
	{"1.0", "0.054", "0.0111", "0.00362", "0.00158", "0.000839", "0.000519", "0.00036", "0.000275", "0.000226", "0.000198", "0.000183", "0.000176"},
	{"1.0", "0.0513", "0.00998", "0.00312", "0.0013", "0.000663", "0.000394", "0.000264", "0.000194", "0.000155", "0.000132", "0.000118", "0.000111", "0.000109"},
	{"1.0", "0.0488", "0.00906", "0.0027", "0.00108", "0.00053", "0.000303", "0.000196", "0.00014", "0.000108", "8.89e-05", "7.77e-05", "7.12e-05", "6.79e-05", "6.71e-05"},
}

// minIndexPerBits is calculationBestPractices' smallest useful column per
// row of fprTable.
var minIndexPerBits = [...]int{0, 0, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 8, 9, 10, 10, 11, 12, 12, 13, 14}

// BestPractices is ClickHouse's calculationBestPractices: the bits per
// distinct value and the number of hashes bloom_filter(fpr) uses. Rates at
// or above 0.283 give (2, 2); rates below what 19 bits reach give (19, 13).
func BestPractices(fpr float64) (bitsPerValue, hashes int) {
	if fpr >= 0.283 {
		return 2, 2
	}
	if math.IsNaN(fpr) || math.IsInf(fpr, -1) {
		return 19, minIndexPerBits[19] // no comparison holds, as in C++
	}
	r := new(big.Rat).SetFloat64(fpr) // fpr exactly, not its shortest decimal
	entry := func(b, k int) *big.Rat {
		row := fprTable[b]
		if k >= len(row) {
			return new(big.Rat) // the C++ table's unlisted entries are zero
		}
		t, _ := new(big.Rat).SetString(row[k])
		return t
	}
	for b := 1; b < 20; b++ {
		if entry(b, minIndexPerBits[b]).Cmp(r) <= 0 {
			for k := minIndexPerBits[b]; k > 0; k-- {
				if entry(b, k).Cmp(r) > 0 {
					return b, k + 1
				}
			}
		}
	}
	return 19, minIndexPerBits[19]
}
