package dataset

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Format is how a value becomes a key.
type Format uint8

const (
	// Text keys are the value's line in the seed's files: %g with six
	// significant digits (C++ ostream's default), so formatting creates
	// duplicates as it did there.
	Text Format = iota
	// Binary keys are the 8 little-endian bytes of the float64.
	Binary
)

func (f Format) String() string {
	if f == Binary {
		return "binary"
	}
	return "text"
}

// ParseFormat reads "text" or "binary".
func ParseFormat(name string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "text":
		return Text, nil
	case "binary":
		return Binary, nil
	}
	return 0, fmt.Errorf("unknown key format %q (want text or binary)", name)
}

// TextDigits is the seed's precision: C++ ostream's default of six
// significant digits.
const TextDigits = 6

// AppendTextKey appends v as the seed's program wrote it.
func AppendTextKey(dst []byte, v float64) []byte {
	return strconv.AppendFloat(dst, v, 'g', TextDigits, 64)
}

// Keys holds the keys of one data set in a single arena; Key(i) aliases
// it. Binary keys are also available as integers (Uint64s), the form the
// library's integer batch calls take.
type Keys struct {
	Dist   Distribution
	Format Format
	arena  []byte
	starts []uint32 // len = Len()+1
	ints   []uint64 // Binary only: the float64 bits, equal to each key's bytes
}

// Len is the number of keys.
func (k *Keys) Len() int { return len(k.starts) - 1 }

// Key returns key i, aliasing the arena.
func (k *Keys) Key(i int) []byte { return k.arena[k.starts[i]:k.starts[i+1]:k.starts[i+1]] }

// Views sets dst to keys [i, j) and returns it, reusing dst's storage.
func (k *Keys) Views(dst [][]byte, i, j int) [][]byte {
	dst = dst[:0]
	for x := i; x < j; x++ {
		dst = append(dst, k.Key(x))
	}
	return dst
}

// Uint64s returns the integer form of keys [i, j), or nil for text keys.
func (k *Keys) Uint64s(i, j int) []uint64 {
	if k.ints == nil {
		return nil
	}
	return k.ints[i:j:j]
}

// maxArena keeps offsets in uint32.
const maxArena = math.MaxUint32

func newKeys(d Distribution, f Format, n int) *Keys {
	k := &Keys{Dist: d, Format: f, starts: make([]uint32, 1, n+1)}
	if f == Binary {
		k.arena = make([]byte, 0, 8*n)
		k.ints = make([]uint64, 0, n)
	} else {
		k.arena = make([]byte, 0, 10*n)
	}
	return k
}

func (k *Keys) appendBinary(bits uint64) {
	k.arena = binary.LittleEndian.AppendUint64(k.arena, bits)
	k.ints = append(k.ints, bits)
	k.starts = append(k.starts, uint32(len(k.arena)))
}

func (k *Keys) appendText(key []byte) error {
	if len(k.arena)+len(key) > maxArena {
		return fmt.Errorf("dataset: %d keys exceed the 4 GiB key arena", k.Len()+1)
	}
	k.arena = append(k.arena, key...)
	k.starts = append(k.starts, uint32(len(k.arena)))
	return nil
}

// Generate returns the first rows values of data set d (generator seed
// seed; SeedRNG for the seed's data) as keys of format f.
func Generate(d Distribution, rows int, f Format, seed uint64) (*Keys, error) {
	k := newKeys(d, f, rows)
	src := NewSource(d, seed)
	var buf []byte
	for range rows {
		v := src.Next()
		if f == Binary {
			k.appendBinary(math.Float64bits(v))
			continue
		}
		buf = AppendTextKey(buf[:0], v)
		if err := k.appendText(buf); err != nil {
			return nil, err
		}
	}
	return k, nil
}

// absentSeed seeds the stream of absent keys; any seed other than SeedRNG
// would do, since absence is guaranteed by construction, not by luck.
const absentSeed = SeedRNG + 1

// Absent returns n keys of d's shape that no key of Generate(d, ...) in
// format f can equal, whatever the rows: the values to test for false
// positives.
//
// Text: values of the same distribution written in their shortest exact
// form, kept only when that form needs more than six significant digits,
// so it never equals a six-digit key. Binary: NaN bit patterns (exponent
// all ones, non-zero mantissa), which no generator returns.
func Absent(d Distribution, n int, f Format) (*Keys, error) {
	k := newKeys(d, f, n)
	src := NewSource(d, absentSeed)
	if f == Binary {
		g := newSplitMix(absentSeed)
		for range n {
			bits := g.next()
			k.appendBinary(bits | 0x7ff0_0000_0000_0000 | 1)
		}
		return k, nil
	}
	var buf []byte
	for k.Len() < n {
		buf = strconv.AppendFloat(buf[:0], src.Next(), 'g', -1, 64)
		if significantDigits(buf) <= TextDigits {
			continue
		}
		if err := k.appendText(buf); err != nil {
			return nil, err
		}
	}
	return k, nil
}

// significantDigits counts the mantissa digits of a %g number without
// its leading zeros.
func significantDigits(s []byte) int {
	n, leading := 0, true
	for _, c := range s {
		if c == 'e' || c == 'E' {
			break
		}
		if c < '0' || c > '9' {
			continue
		}
		if leading && c == '0' {
			continue
		}
		leading = false
		n++
	}
	return n
}

// splitMix is SplitMix64, a bijective mixer over a counter.
type splitMix struct{ x uint64 }

func newSplitMix(seed uint64) splitMix { return splitMix{seed} }

func (s *splitMix) next() uint64 {
	s.x += 0x9e3779b97f4a7c15
	return Mix64(s.x)
}

// Mix64 is SplitMix64's finalizer, a bijection on uint64: distinct inputs
// give distinct outputs, which lets callers build disjoint key sets from
// disjoint counters.
func Mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Write writes the keys as the seed's files hold them: one line per text
// key, 8 raw bytes per binary key.
func (k *Keys) Write(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	for i := range k.Len() {
		bw.Write(k.Key(i))
		if k.Format == Text {
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

// Integers returns n distinct 8-byte keys, Mix64(first+i) for i < n, in
// binary form. Ranges that do not overlap give disjoint key sets, so
// members and non-members of a sized experiment never collide.
func Integers(first uint64, n int) *Keys {
	k := newKeys(0, Binary, n)
	for i := range uint64(n) {
		k.appendBinary(Mix64(first + i))
	}
	return k
}
