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
	masks        []uint64    // token bytes of the arena's 64-byte blocks
	forms        [4][]uint64 // tokens by CityHash64 form, start | end<<32

	// What f holds already, so that a token or n-gram repeated within a
	// granule, as text repeats them, is not added again: for tokenbf_v1 a
	// direct-mapped cache of c = CityHash64(token) - k2 (a slot holds the
	// last c that mapped to it: a hit is exact), for ngrambf_v1 with n <= 3
	// the set of the n-grams of ASCII values, by their bytes s[0], s[n/2],
	// s[n-1] (which alone fix their CityHash64) as 7-bit digits. seen is
	// valid while f.gen is seenGen, and kept once seenAfter items went
	// through without it.
	seen    []uint64
	seenGen uint64
	unseen  int // items added while seen is nil
	// The last few thousand looked up, how many were new, and how many to
	// add without a lookup: values whose tokens rarely repeat (random
	// bytes) do not pay for the lookups.
	tried, fresh, pause int
}

const (
	// seenAfter is how many items a filter takes before textBatch keeps
	// what it holds.
	seenAfter = 1 << 14
	// Every seenWindow items looked up, if more than three quarters were
	// new, the next seenPause go without a lookup.
	seenWindow = 1 << 14
	seenPause  = 1 << 18
)

// useSeen reports whether to look the next n items up in seen, making a
// seen of words words once seenAfter items went through.
func (t *textBatch) useSeen(n, words int) bool {
	if t.seen == nil {
		if t.unseen += n; t.unseen >= seenAfter {
			t.seen = make([]uint64, words)
		}
		return false
	}
	if t.pause > 0 {
		t.pause -= n
		return false
	}
	return true
}

// looked records tried items looked up, fresh of them new.
func (t *textBatch) looked(tried, fresh int) {
	if t.tried, t.fresh = t.tried+tried, t.fresh+fresh; t.tried >= seenWindow {
		if 4*t.fresh > 3*t.tried {
			t.pause = seenPause
		}
		t.tried, t.fresh = 0, 0
	}
}

func (t *textBatch) reset(f *BloomFilter, kind Kind, n int) {
	if t.seen != nil && (t.f != f || t.seenGen != f.gen) {
		clear(t.seen) // bits were cleared since, or another filter
	}
	t.f, t.kind, t.n, t.seenGen = f, kind, n, f.gen
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
	need := (to-arenaPad)/2 + 8
	if len(t.starts) < need {
		t.starts, t.ends = make([]int32, need), make([]int32, need)
	}
	if len(t.masks) < (to-arenaPad)/64 {
		t.masks = make([]uint64, (to-arenaPad)/64)
	}
	nt := tokenBounds(a, arenaPad, to, t.starts[:need], t.ends[:need], t.masks)
	t.room(nt)
	cs := t.cs[len(t.cs) : len(t.cs)+nt]
	if len(t.forms[0]) < nt {
		for i := range t.forms {
			t.forms[i] = make([]uint64, max(nt, 512))
		}
	}
	hashTokens(a, t.starts[:nt], t.ends[:nt], &t.forms, cs)
	if t.useSeen(nt, 1<<bits.Len(uint(min(max(t.f.size, 1024), 1<<14)-1))) {
		kept := newTokens(t.seen, cs)
		t.looked(nt, kept)
		nt = kept
	}
	t.cs = t.cs[:len(t.cs)+nt]
	t.arena = a[:arenaPad]
}

// formLane[l] counts a token of l bytes (17 standing for more) in the
// 16-bit lane of the CityHash64 form its length selects: 1 to 3, 4 to 8, 9
// to 16 and more bytes.
var formLane = [18]uint64{1, 1, 1, 1, 1 << 16, 1 << 16, 1 << 16, 1 << 16, 1 << 16,
	1 << 32, 1 << 32, 1 << 32, 1 << 32, 1 << 32, 1 << 32, 1 << 32, 1 << 32, 1 << 48}

// hashTokens sets cs[j] = CityHash64(a[s:e]) - k2 for the tokens a[s:e]
// that starts and ends bound, in some order (the bits they set do not
// depend on it). CityHash v1.0.2 hashes 1-3, 4-8, 9-16 and longer inputs
// each its own way, and token lengths in text are too mixed for a branch on
// them to predict: a first pass sorts the tokens into forms (writing each
// token to all four lists and advancing only its own), then each form's
// loop has no branch. forms must have room for len(starts) entries each,
// and every token must have 8 bytes of a on either side of its start.
func hashTokens(a []byte, starts, ends []int32, forms *[4][]uint64, cs []uint64) {
	nt := len(starts)
	ends, cs = ends[:nt], cs[:nt]
	f0, f1, f2, f3 := forms[0][:nt], forms[1][:nt], forms[2][:nt], forms[3][:nt]
	var cnt uint64 // the four counts, 16 bits each (nt < 2^16)
	for j, s := range starts {
		e := ends[j]
		se := uint64(uint32(s)) | uint64(e)<<32
		f0[cnt&0xffff] = se
		f1[cnt>>16&0xffff] = se
		f2[cnt>>32&0xffff] = se
		f3[cnt>>48] = se
		cnt += formLane[min(e-s, 17)]
	}
	i := 0
	// 1 to 3 bytes: ShiftMix(y * k2 ^ z * k3) * k2.
	for _, se := range f0[:cnt&0xffff] {
		s, e := int(uint32(se)), int(se>>32)
		l := uint64(e - s)
		y := uint64(a[s]) | uint64(a[s+int(l>>1)])<<8
		z := l + uint64(a[e-1])<<2
		h := y*k2 ^ z*k3
		cs[i] = (h^h>>47)*k2 - k2
		i++
	}
	// 4 to 8: HashLen16(len + (Fetch32(s) << 3), Fetch32(s + len - 4)).
	for _, se := range f1[:cnt>>16&0xffff] {
		s, e := int(uint32(se)), int(se>>32)
		u := uint64(e-s) + uint64(binary.LittleEndian.Uint32(a[s:s+4]))<<3
		v := uint64(binary.LittleEndian.Uint32(a[e-4 : e]))
		cs[i] = Hash128to64(u, v) - k2
		i++
	}
	// 9 to 16: HashLen16(Fetch64(s), Rotate(Fetch64(s + len - 8) + len, len)) ^ Fetch64(s + len - 8).
	for _, se := range f2[:cnt>>32&0xffff] {
		s, e := int(uint32(se)), int(se>>32)
		l := uint64(e - s)
		lo := binary.LittleEndian.Uint64(a[s : s+8])
		hi := binary.LittleEndian.Uint64(a[e-8 : e])
		cs[i] = Hash128to64(lo, bits.RotateLeft64(hi+l, -int(l))) ^ hi - k2
		i++
	}
	for _, se := range f3[:cnt>>48] {
		s, e := int(uint32(se)), int(se>>32)
		cs[i] = city.CH64(a[s:e]) - k2
		i++
	}
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
		case n <= 3 && t.useSeen(len(cs), max(1, 1<<(7*n)/64)):
			cnt = t.newShortNgrams(w, cs)
			t.looked(len(cs), cnt)
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
		i += len(cs)
	}
}

// newTokens removes from cs, in place, the tokens the cache holds and the
// repeats within cs, records the others, and returns their count: every
// token removed has its bits in the filter already or gets them from an
// earlier token of cs. c == 0 is never taken for a hit, 0 being also an
// empty slot. len(cache) is a power of two.
func newTokens(cache, cs []uint64) int {
	kept := 0
	for _, c := range cs {
		i := c >> 32 & uint64(len(cache)-1)
		old := cache[i]
		cache[i] = c
		cs[kept] = c
		// Without a branch: keep if old != c or c == 0.
		x := old ^ c
		kept += int((x|-x)>>63 | ((c|-c)>>63 ^ 1))
	}
	return kept
}

// newShortNgrams hashes into cs the n-grams w[j:j+n] (n <= 3, ASCII) for
// j < len(cs) that seen does not hold, marks them seen, and returns their
// count. Those it drops have their bits in f already, or get them from an
// earlier n-gram of cs.
func (t *textBatch) newShortNgrams(w []byte, cs []uint64) int {
	n, seen := t.n, t.seen
	ln, mid := uint64(n), n>>1
	// The key's digits: s[0], s[n/2] and s[n-1] for n = 3; s[0] and s[1]
	// (twice) for n = 2; s[0] (thrice) for n = 1.
	s1, s2 := uint(min(n-1, 1)*7), uint((n-1)*7)
	kept := 0
	for j := range cs {
		b0, bm, bl := w[j], w[j+mid], w[j+n-1]
		key := uint(b0) | uint(bm)<<s1 | uint(bl)<<s2
		word := key >> 6 & uint(len(seen)-1)
		old := seen[word]
		seen[word] = old | 1<<(key&63)
		y := uint64(b0) + uint64(bm)<<8
		z := ln + uint64(bl)<<2
		h := y*k2 ^ z*k3
		cs[kept] = (h^h>>47)*k2 - k2
		kept += int(old>>(key&63)&1 ^ 1)
	}
	return kept
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
