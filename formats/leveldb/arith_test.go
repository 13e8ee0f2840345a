package leveldb

import (
	"encoding/binary"
	"testing"
)

// Pebble's reader divides by zero where its 32-bit line size
// 8*((len-5)/nLines) is 0: no lines, more lines than bytes, and (the
// sizes here) a quotient that is a multiple of 2^29, whose product by 8
// wraps to 0. probeLines answers true there and reads inside the filter
// everywhere else; these cases need only the length.
func TestProbeLinesWrappingSizes(t *testing.T) {
	for _, c := range []struct {
		n, lines uint32
		want     bool // true: Pebble divides by zero
	}{
		{1 << 29, 1, true},    // 2^29 + 5 bytes, one line
		{1 << 30, 2, true},    // 2^30 + 5 bytes, two lines
		{3 << 29, 3, true},    // 3*2^29 + 5 bytes, three lines
		{1<<30 + 1, 2, true},  // quotient 2^29, remainder 1
		{1 << 31, 4, true},    // quotient 2^29
		{1 << 30, 1, true},    // quotient 2^30
		{1<<29 + 1, 1, false}, // 8*(2^29+1) wraps to 8
		{1<<29 - 1, 1, false}, // the largest line that does not wrap
		{1<<32 - 1, 1 << 31, false},
		{100, 101, true}, // more lines than bytes
		{100, 0, true},   // no lines
	} {
		maxIndex := uint32(0)
		at := func(i uint32) byte {
			if i >= c.n {
				t.Fatalf("n=%d lines=%d: probe reads byte %d, outside the filter", c.n, c.lines, i)
			}
			maxIndex = max(maxIndex, i)
			return 0 // every probe misses: only a division by zero answers true
		}
		for _, h := range []uint32{0, 1, 0x12345678, 1<<32 - 1} {
			if got := probeLines(c.n, c.lines, h, 1, at); got != c.want {
				t.Errorf("n=%d lines=%d h=%#x: %v, want %v", c.n, c.lines, h, got, c.want)
			}
		}
	}
}

// The reader itself on the 2^29 + 5 bytes of one line with k = 1: Pebble's
// line size wraps to 0 there (an "integer divide by zero" panic), and the
// answer is true. The bytes are allocated once and only the trailer is
// written: the zero pages are never touched.
func TestRocksDBMayMatchWrappingLineSize(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 512 MiB of untouched zero pages")
	}
	f := make([]byte, 1<<29+5)
	for _, lines := range []uint32{1, 2, 4} {
		// 2^29 bytes over 1, 2, 4 lines: quotients 2^29 (wraps to 0), 2^28
		// and 2^27 (lines of 2^31 and 2^30 bits: answers from the bits).
		f[1<<29] = 1
		binary.LittleEndian.PutUint32(f[1<<29+1:], lines)
		got := RocksDBMayMatch(f, []byte("key"))
		if want := lines == 1; got != want {
			t.Errorf("2^29 + 5 bytes, %d lines, k = 1: %v, want %v", lines, got, want)
		}
	}
	// LevelDB's reader on 2^29 + 1 bytes (2^32 bits: goleveldb's size
	// wraps to 0 there) answers as C++ LevelDB: bit h of the zero bytes.
	f = f[:1<<29+1]
	f[1<<29] = 1
	for _, key := range [][]byte{[]byte("key"), {0x80}, {}} {
		if got, want := MayMatch(f, key), levelDBMayMatchSpec(f, key); got || want {
			t.Errorf("LevelDB: 2^29 + 1 zero bytes, k = 1: %v, C++ LevelDB %v, want false", got, want)
		}
	}
}

// FuzzProbeLines checks probeLines against Pebble's arithmetic on a
// length alone: every byte it reads is inside the filter, and it answers
// as Pebble where Pebble does not divide by zero. The seeds include the
// sizes and line counts whose 32-bit products wrap.
func FuzzProbeLines(f *testing.F) {
	for _, s := range [][2]uint32{
		{1 << 29, 1}, {1 << 30, 2}, {3 << 29, 3}, {1<<29 + 1, 1}, {1<<32 - 1, 1}, {1<<32 - 1, 3},
		{1<<32 - 64, 1<<26 - 1}, {1 << 31, 1 << 23}, {64, 1}, {100, 0}, {100, 101},
	} {
		f.Add(s[0], s[1], uint32(0x9e3779b9), uint8(30), uint64(1))
	}
	f.Fuzz(func(t *testing.T, n, lines, h uint32, k uint8, seed uint64) {
		if n == 0 {
			return
		}
		// The filter's bytes as a function of the index: a random pattern
		// seeded per input, so probes answer both ways.
		bit := func(i uint32) byte {
			x := (uint64(i) + seed) * 0x9e3779b97f4a7c15
			return byte(x >> 56)
		}
		at := func(i uint32) byte {
			if i >= n {
				t.Fatalf("n=%d lines=%d h=%#x: reads byte %d", n, lines, h, i)
			}
			return bit(i)
		}
		got := probeLines(n, lines, h, k, at)
		// Pebble's MayContain in its own arithmetic.
		if lines == 0 || 8*(n/lines) == 0 {
			if !got {
				t.Fatalf("n=%d lines=%d: Pebble divides by zero, want true", n, lines)
			}
			return
		}
		lineBits := 8 * (n / lines)
		b, delta := (h%lines)*lineBits, h>>17|h<<15
		want := true
		for range k {
			pos := b + h%lineBits
			if bit(pos/8)&(1<<(pos%8)) == 0 {
				want = false
				break
			}
			h += delta
		}
		if got != want {
			t.Fatalf("n=%d lines=%d: %v, Pebble %v", n, lines, got, want)
		}
	})
}
