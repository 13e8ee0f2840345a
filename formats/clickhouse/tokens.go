package clickhouse

import "math/bits"

// isSep[b] is true for the bytes that separate tokens in tokenbf_v1: ASCII
// bytes other than [0-9A-Za-z]. Every byte >= 0x80 belongs to a token.
var isSep [256]bool

// seqLen[b] is the length ClickHouse gives a UTF-8 sequence by its first
// byte (UTF8::seqLength): 1 for ASCII, continuation bytes and bytes >= 0xF8,
// else the count of leading one bits.
var seqLen [256]uint8

func init() {
	for b := 0; b < 256; b++ {
		c := byte(b)
		alnum := c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
		isSep[b] = c < 0x80 && !alnum
		if c < 0x80 || c >= 0xF8 {
			seqLen[b] = 1
		} else {
			seqLen[b] = uint8(8 - 1 - (bits.Len8(^c) - 1))
		}
	}
}

// nextToken returns the next token of s at or after pos as s[start:end],
// and ok == false when no token is left.
func nextToken(s []byte, pos int) (start, end int, ok bool) {
	for pos < len(s) && isSep[s[pos]] {
		pos++
	}
	start = pos
	for pos < len(s) && !isSep[s[pos]] {
		pos++
	}
	return start, pos, pos > start
}

// Tokens returns the tokens tokenbf_v1 adds for s: the maximal runs of
// bytes that are not separators, in order, repeats included.
func Tokens(s []byte) [][]byte {
	var out [][]byte
	for pos := 0; ; {
		start, end, ok := nextToken(s, pos)
		if !ok {
			return out
		}
		out = append(out, s[start:end:end])
		pos = end
	}
}

// nextNgram returns the n-gram of n code points starting at pos, its end,
// and the start of the next n-gram; ok is false when fewer than n code
// points are left. A sequence cut by the end of s is clamped to s.
func nextNgram(s []byte, pos, n int) (end, next int, ok bool) {
	l := len(s)
	end = pos
	cp := 0
	for ; cp < n && end < l; cp++ {
		end += int(seqLen[s[end]])
	}
	if end > l {
		end = l
	}
	return end, pos + int(seqLen[s[pos]]), cp == n
}

// Ngrams returns the n-grams ngrambf_v1(n, ...) adds for s: every run of n
// code points, advancing one code point at a time, with code points measured
// as ClickHouse measures them (the length a first byte announces, clamped at
// the end of s; every byte >= 0xF8 or continuation byte counts as one).
// Strings of fewer than n code points give none.
func Ngrams(s []byte, n int) [][]byte {
	var out [][]byte
	if n < 1 {
		return nil
	}
	for pos := 0; pos < len(s); {
		end, next, ok := nextNgram(s, pos, n)
		if !ok {
			break
		}
		out = append(out, s[pos:end:end])
		pos = next
	}
	return out
}
