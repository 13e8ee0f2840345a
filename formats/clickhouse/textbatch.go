package clickhouse

import (
	"encoding/binary"
	"math/bits"

	"github.com/go-faster/city"
)

const (
	// arenaBytes is how many bytes of values textBatch gathers before it
	// tokenizes them; longer values go through in pieces.
	arenaBytes = 4096
	// arenaPad zero bytes stand in front of the first value and past the
	// last 64-byte block, so that every 8-byte load of a token's first or
	// last bytes stays inside the arena.
	arenaPad = 8
)

// zeros pads the arena to whole 64-byte blocks.
var zeros [64 + arenaPad]byte

// textBatch adds the tokens or n-grams of many values to a text index
// filter. For tokenbf_v1 it copies values into an arena, a zero byte (a
// separator) after each, finds the arena's tokens 64 bytes at a time,
// hashes each token once (c = CityHash64(token) - k2, from which both
// seeded hashes derive) into cs, then sets the bits of all of them in one
// tight loop (BloomFilter.addHashed). Its buffers are reused from call to
// call.
type textBatch struct {
	f            *BloomFilter
	kind         Kind
	n            int
	cs           []uint64
	arena        []byte
	starts, ends []int32
}

func (t *textBatch) reset(f *BloomFilter, kind Kind, n int) {
	t.f, t.kind, t.n = f, kind, n
	t.cs = t.cs[:0]
	t.arena = append(t.arena[:0], zeros[:arenaPad]...)
}

// room makes space for n more hashes in cs, flushing it when full.
func (t *textBatch) room(n int) {
	if len(t.cs)+n <= cap(t.cs) {
		return
	}
	t.f.addHashed(t.cs)
	t.cs = t.cs[:0]
	if n > cap(t.cs) {
		t.cs = make([]uint64, 0, max(n, 512))
	}
}

// flush adds everything gathered to the filter.
func (t *textBatch) flush() {
	t.tokenizeArena()
	t.f.addHashed(t.cs)
	t.cs = t.cs[:0]
}

// add adds one value.
func (t *textBatch) add(s []byte) {
	if t.kind == TokenBF {
		if len(t.arena)+len(s)+1 > arenaBytes {
			t.tokenizeArena()
			if len(s)+1+arenaPad > arenaBytes {
				t.addLong(s)
				return
			}
		}
		t.arena = append(t.arena, s...)
		t.arena = append(t.arena, 0)
		return
	}
	if ascii(s) {
		t.asciiNgrams(s)
		return
	}
	var pad [8]byte
	b := s
	if len(s) < 8 {
		copy(pad[:], s)
		b = pad[:]
	}
	for pos := 0; pos < len(s); {
		end, next, ok := nextNgram(s, pos, t.n)
		if !ok {
			break
		}
		t.room(1)
		t.cs = append(t.cs, cityIn(b, pos, end)-k2)
		pos = next
	}
}

// addLong adds a value too long for the arena, one arena at a time. A
// token cut by the end of a piece starts the next piece; a token longer
// than a piece is hashed on its own.
func (t *textBatch) addLong(s []byte) {
	const piece = arenaBytes - arenaPad - 1
	for pos := 0; pos < len(s); {
		end := min(pos+piece, len(s))
		if end < len(s) && !isSep[s[end-1]] && !isSep[s[end]] {
			ls := end - 1
			for ls > pos && !isSep[s[ls-1]] {
				ls--
			}
			if ls == pos {
				e := end
				for e < len(s) && !isSep[s[e]] {
					e++
				}
				t.room(1)
				t.cs = append(t.cs, city.CH64(s[pos:e])-k2)
				pos = e
				continue
			}
			end = ls
		}
		t.arena = append(t.arena, s[pos:end]...)
		t.arena = append(t.arena, 0)
		t.tokenizeArena()
		pos = end
	}
}

// tokenizeArena hashes the tokens of the arena into cs and empties it.
func (t *textBatch) tokenizeArena() {
	a := t.arena
	if len(a) == arenaPad {
		return
	}
	to := arenaPad + (len(a)-arenaPad+63)&^63
	a = append(a, zeros[:to+arenaPad-len(a)]...)
	need := (to - arenaPad) / 2
	if len(t.starts) < need {
		t.starts, t.ends = make([]int32, need), make([]int32, need)
	}
	nt := tokenBounds(a, arenaPad, to, t.starts[:need], t.ends[:need])
	t.room(nt)
	cs := t.cs[len(t.cs) : len(t.cs)+nt]
	starts, ends := t.starts[:nt], t.ends[:nt]
	for j := range cs {
		s, e := int(starts[j]), int(ends[j])
		l := uint64(e - s)
		lo := binary.LittleEndian.Uint64(a[s : s+8])
		hi := binary.LittleEndian.Uint64(a[e-8 : e])
		if l > 16 {
			cs[j] = city.CH64(a[s:e]) - k2
			continue
		}
		// CityHash v1.0.2's HashLen0to16 has three forms; all are computed
		// from the 8 bytes at s and the 8 bytes ending at e, and the
		// length selects one without a branch (token lengths in text are
		// too mixed for a branch on them to predict).
		// 4 to 8 bytes: HashLen16(len + (Fetch32(s) << 3), Fetch32(s + len - 4)).
		u, v, x := l+(lo&0xffffffff)<<3, hi>>32, uint64(0)
		// 9 to 16: HashLen16(Fetch64(s), Rotate(Fetch64(s + len - 8) + len, len)) ^ Fetch64(s + len - 8).
		r := bits.RotateLeft64(hi+l, -int(l))
		if l > 8 {
			u = lo
		}
		if l > 8 {
			v = r
		}
		if l > 8 {
			x = hi
		}
		h := Hash128to64(u, v) ^ x
		// 1 to 3: ShiftMix(y * k2 ^ z * k3) * k2.
		y := lo&0xff | (lo>>(8*(l>>1&7)))&0xff<<8
		z := l + hi>>56<<2
		sm := y*k2 ^ z*k3
		sm = (sm ^ sm>>47) * k2
		if l < 4 {
			h = sm
		}
		cs[j] = h - k2
	}
	t.cs = t.cs[:len(t.cs)+nt]
	t.arena = a[:arenaPad]
}

// asciiNgrams adds the n-grams of an ASCII value: s[i:i+n] for every i,
// hashed by the one CityHash64 form their fixed length selects.
func (t *textBatch) asciiNgrams(s []byte) {
	n := t.n
	for i := 0; i+n <= len(s); {
		cnt := min(len(s)-n+1-i, 1024)
		t.room(cnt)
		cs := t.cs[len(t.cs) : len(t.cs)+cnt]
		w := s[i : i+cnt+n-1]
		switch {
		case n <= 3:
			ln, mid := uint64(n), n>>1
			for j := range cs {
				y := uint64(w[j]) + uint64(w[j+mid])<<8
				z := ln + uint64(w[j+n-1])<<2
				h := y*k2 ^ z*k3
				cs[j] = (h^h>>47)*k2 - k2
			}
		case n <= 8:
			ln := uint64(n)
			for j := range cs {
				a := uint64(binary.LittleEndian.Uint32(w[j:]))
				b := uint64(binary.LittleEndian.Uint32(w[j+n-4:]))
				cs[j] = Hash128to64(ln+a<<3, b) - k2
			}
		case n <= 16:
			for j := range cs {
				cs[j] = cityShort(w, j, j+n) - k2
			}
		default:
			for j := range cs {
				cs[j] = city.CH64(w[j:j+n]) - k2
			}
		}
		t.cs = t.cs[:len(t.cs)+cnt]
		i += cnt
	}
}

// ascii reports whether s has no byte >= 0x80.
func ascii(s []byte) bool {
	for len(s) >= 8 {
		if binary.LittleEndian.Uint64(s)&highs != 0 {
			return false
		}
		s = s[8:]
	}
	for _, c := range s {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
