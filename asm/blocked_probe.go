package asm

import (
	"math/bits"
	"unsafe"
)

// The single-key probe of the blocked scheme, shared by the blocked
// family's scalar methods and the generic batch kernels, so the batch
// path on purego and arm64 runs the same code as a loop of single-key
// calls. A round is unrolled over the eight words with constant word
// indices, so the only variable operation per word is a rotate by the
// probe bit; the last (for k <= 8 the only) round takes its window from a
// table row, blockedKeep or blockedTake, instead of computing it word by
// word; the line is an *[8]uint64 formed after one comparison, so the
// probe has no bounds check. A service's loop of single-key calls runs
// as fast as the core keeps several keys' cache misses in flight, which
// it does when each key's instruction stream is short and only a few of
// its instructions wait for the line: a round (blockedRoundHas) runs
// without a stack frame, only an OR per word and an AND per pair wait on
// the line, and for k <= 8 it is the whole probe.

// blockedBit returns the bit, in word w of its line, that a round with
// value g sets: (g >> BlockedShift(w)) & 63 = (g >> (58 - 6w)) & 63. It is
// the scheme's one statement of the bit formula: every probe in Go goes
// through it (with a constant w the shift is a constant), and the vector
// kernels' per-lane shift table is BlockedShift.
func blockedBit(g uint64, w uint) uint64 { return (g >> BlockedShift(w)) & 63 }

// BlockedShift is how far right a round's g is shifted for word w before
// its low six bits are taken: word 0 takes the top six bits of g, word 7
// bits 16..21.
func BlockedShift(w uint) uint { return 58 - 6*w }

// blockedZero is the panic of a write to a blocked filter without lines:
// a zero blocked.Filter, or one after Close. It is the message
// internal/batch.Zero gives for that type (batch imports asm, so asm
// cannot call it); the blocked package's tests hold the two equal. The
// check lives here, in the non-inlined probe, so that it costs the
// inlined single-key methods of blocked.Filter nothing.
const blockedZero = "blocked.Filter: zero value, use blocked.New"

// blockedWindow returns, as bits 0..7, the words that the last round of k
// probes sets: the k%8 words from s = (g0 >> 13) & 7 on, wrapping, where
// g0 = h*BlockedMul, or all eight when k is a multiple of 8.
func blockedWindow(g0 uint64, k uint32) uint8 {
	return bits.RotateLeft8(0xff>>(-k&7), int(g0>>13&7))
}

// blockedKeep and blockedTake are the last round's window word by word,
// for every k%8 and s: blockedTake[k%8][s][w] is 1 if word w takes a bit,
// else 0, and blockedKeep is its complement, ^1 or all ones. Rotating a
// keep word left by the probe bit gives the word's test mask, shifting a
// take word left gives its add mask: a table load replaces the per-word
// window arithmetic, and each row is one cache line.
var blockedKeep, blockedTake = blockedWindowTables()

func blockedWindowTables() (keep, take [8][8][8]uint64) {
	for r := range uint32(8) {
		for s := range uint64(8) {
			win := blockedWindow(s<<13, r)
			for w := range 8 {
				take[r][s][w] = uint64(win>>w) & 1
				keep[r][s][w] = ^take[r][s][w]
			}
		}
	}
	return keep, take
}

// blockedHas is all ones when line[w] holds bit blockedBit(g, w), or when
// keep (^1 for a word the round probes) is all ones.
func blockedHas(line *[8]uint64, g, keep uint64, w uint) uint64 {
	return line[w] | bits.RotateLeft64(keep, int(blockedBit(g, w)))
}

// blockedRoundHas is all ones when line holds every bit that a round
// with value g sets in the words keep marks ^1: for k <= 8 it is the
// whole test of a key with g = h*BlockedMul and keep =
// blockedKeepRow(g, k). It calls nothing, so it runs without a stack
// frame, and of its work on a word only an OR and an AND wait for the
// line.
func blockedRoundHas(line *[8]uint64, g uint64, keep *[8]uint64) uint64 {
	return blockedHas(line, g, keep[0], 0) & blockedHas(line, g, keep[1], 1) &
		blockedHas(line, g, keep[2], 2) & blockedHas(line, g, keep[3], 3) &
		blockedHas(line, g, keep[4], 4) & blockedHas(line, g, keep[5], 5) &
		blockedHas(line, g, keep[6], 6) & blockedHas(line, g, keep[7], 7)
}

// blockedRoundSet sets in line the bits a round with value g sets in the
// words take marks 1 (blockedTakeRow for the last round), without a
// stack frame.
func blockedRoundSet(line *[8]uint64, g uint64, take *[8]uint64) {
	line[0] |= take[0] << blockedBit(g, 0)
	line[1] |= take[1] << blockedBit(g, 1)
	line[2] |= take[2] << blockedBit(g, 2)
	line[3] |= take[3] << blockedBit(g, 3)
	line[4] |= take[4] << blockedBit(g, 4)
	line[5] |= take[5] << blockedBit(g, 5)
	line[6] |= take[6] << blockedBit(g, 6)
	line[7] |= take[7] << blockedBit(g, 7)
}

// BlockedRows returns the blockedKeep and blockedTake rows of the last
// round of k probes, one per s: blockedKeepRow(g0, k) ==
// &keep[g0>>13&7]. A filter with k <= 8 keeps them to find a key's row
// with one load.
func BlockedRows(k uint32) (keep, take *[8][8]uint64) {
	return &blockedKeep[k&7], &blockedTake[k&7]
}

// blockedKeepRow is the blockedKeep row of the last round of k probes of
// a key with g0 = h*BlockedMul; blockedTakeRow its blockedTake row.
func blockedKeepRow(g0 uint64, k uint32) *[8]uint64 { return &blockedKeep[k&7][g0>>13&7] }

// blockedTakeRow is the blockedTake row of the last round of k probes.
func blockedTakeRow(g0 uint64, k uint32) *[8]uint64 { return &blockedTake[k&7][g0>>13&7] }

// BlockedTestHash reports whether the blocked filter words (a whole
// number of 8-word lines) holds all k bits of hash h; k in [1,
// engine.MaxK]. Words without a line (a zero filter) hold no key: the
// answer is false.
//
// The probe is short so that the core runs ahead into the next keys and
// overlaps their cache misses, and little of it waits on the line: each
// word's test mask is computed from the hash alone (a constant shift, a
// table load and a rotate; the table, blockedKeep, holds the last
// round's window), and only an OR with the word and an AND into the
// result depend on the load (blockedRoundHas).
func BlockedTestHash(words []uint64, h uint64, k uint32) bool {
	line, ok := blockedLineOf(words, h)
	if !ok {
		return false
	}
	g := h * BlockedMul
	last := blockedKeepRow(g, k)
	if k <= 8 {
		return blockedRoundHas(line, g, last) == ^uint64(0)
	}
	all := ^uint64(0)
	for n := (k - 1) >> 3; n > 0; n-- {
		all &= blockedRoundHas(line, g, &blockedKeep[0][0]) // all eight words
		g *= BlockedMul
	}
	return all&blockedRoundHas(line, g, last) == ^uint64(0)
}

// BlockedAddHash sets the k bits of hash h in the blocked filter words,
// word by word as BlockedTestHash tests them. Words without a line panic
// with the message of a zero blocked.Filter.
func BlockedAddHash(words []uint64, h uint64, k uint32) {
	line, ok := blockedLineOf(words, h)
	if !ok {
		panic(blockedZero)
	}
	g := h * BlockedMul
	last := blockedTakeRow(g, k)
	if k <= 8 {
		blockedRoundSet(line, g, last)
		return
	}
	for n := (k - 1) >> 3; n > 0; n-- {
		blockedRoundSet(line, g, &blockedTake[0][0]) // all eight words
		g *= BlockedMul
	}
	blockedRoundSet(line, g, last)
}

// BlockedTestAndAddHash sets the k bits of hash h in the blocked filter
// words and reports whether all of them were set before. A key that tests
// present changes nothing, so the add runs only for the others.
func BlockedTestAndAddHash(words []uint64, h uint64, k uint32) bool {
	present := BlockedTestHash(words, h, k)
	if !present {
		BlockedAddHash(words, h, k)
	}
	return present
}

// blockedLineOf returns the line of hash h in words (a whole number of
// 8-word lines) as an array pointer, and false when words has no line (a
// zero filter). Its one comparison stands for the bounds check: the line
// index is below len(words)/8 by construction, so the pointer is formed
// without another. It inlines into its caller.
func blockedLineOf(words []uint64, h uint64) (*[8]uint64, bool) {
	base := BlockedLine(h, uint64(len(words))/8) * 8
	if base+8 > uint64(len(words)) {
		return nil, false
	}
	return (*[8]uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(words)), base*8)), true
}
