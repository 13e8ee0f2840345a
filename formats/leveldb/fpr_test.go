package leveldb

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/fprstat"
)

// randomKeys returns n random 16-byte keys. The engines' hash is weak on
// structured keys (two 8-byte keys that differ only in the top bit of a
// 32-bit word hash to values 2^31 + 2^15 apart, so their probes
// correlate), so the rates are checked on random keys.
func randomKeys(rng *rand.Rand, n int) [][]byte {
	keys := make([][]byte, n)
	for i := range keys {
		keys[i] = binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, rng.Uint64()), rng.Uint64())
	}
	return keys
}

// fprBounds returns the 99.9% bounds on the false positives among trials
// random non-members of filter, built from n keys at bpk bits per key:
//
//   - LevelDB: the second hash is the first rotated, not an independent
//     one, and the probes correlate: the Bloom model (independent probes
//     over the same bits) bounds the rate from below and twice it from
//     above.
//   - RocksDB: inside a line the probes are a + j*d mod 512 with a the
//     low nine bits of h and d bits 17..25 (the rotation), so the rate is
//     exact given the filter's bits (legacyFPRGivenBits).
func fprBounds(name string, filter []byte, n, bpk int, trials uint64) (lo, hi, model float64) {
	k := uint32(Probes(bpk))
	if name == "LevelDB" {
		model = engine.FPR(8*uint64(len(filter)-1), uint64(n), k)
		lo, _ = fprstat.BinomialBounds(trials, model, fprstat.Z999)
		_, hi = fprstat.BinomialBounds(trials, 2*model, fprstat.Z999)
		return lo, hi, model
	}
	model = legacyFPRGivenBits(filter)
	lo, hi = fprstat.BinomialBounds(trials, model, fprstat.Z999)
	return lo, hi, model
}

func TestFPR(t *testing.T) {
	const n, trials = 100_000, 1_000_000
	rng := rand.New(rand.NewPCG(14, 5))
	keys, absent := randomKeys(rng, n), randomKeys(rng, trials)
	for _, f := range formats {
		for _, bpk := range []int{5, 10, 16} {
			filter := f.mustAppend(t, nil, keys, bpk)
			for _, key := range keys {
				if !f.mayMatch(filter, key) {
					t.Fatalf("%s: bitsPerKey=%d: false negative", f.name, bpk)
				}
			}
			fp := 0
			for _, key := range absent {
				if f.mayMatch(filter, key) {
					fp++
				}
			}
			lo, hi, model := fprBounds(f.name, filter, n, bpk, trials)
			t.Logf("%s: bitsPerKey=%d k=%d: measured %.5f, model %.5f", f.name, bpk, Probes(bpk), float64(fp)/trials, model)
			if float64(fp) < lo || float64(fp) > hi {
				t.Errorf("%s: bitsPerKey=%d: %d false positives outside [%.0f, %.0f] (model %.5f)", f.name, bpk, fp, lo, hi, model)
			}
		}
	}
}

// legacyFPRGivenBits is the chance that a key with a uniform hash passes a
// legacy filter of 64-byte lines: its line is h % nLines, and its k probes
// in it are a + j*d (mod 512) for a = h & 511 and d = h >> 17 & 511.
func legacyFPRGivenBits(f []byte) float64 {
	n := len(f) - 5
	k, lines := int(f[n]), n/64
	var sum float64
	for l := range lines {
		var w [8]uint64
		for i := range w {
			w[i] = binary.LittleEndian.Uint64(f[64*l+8*i:])
		}
		// rot[s] is the line with bit a taken from bit (a+s) mod 512.
		var rot [512][8]uint64
		for s := range rot {
			ws, bs := s>>6, uint(s&63)
			for q := range 8 {
				rot[s][q] = w[(q+ws)%8] >> bs
				if bs != 0 {
					rot[s][q] |= w[(q+ws+1)%8] << (64 - bs)
				}
			}
		}
		pass := 0
		for d := range 512 {
			acc := rot[0]
			for j := 1; j < k; j++ {
				r := &rot[j*d%512]
				for q := range acc {
					acc[q] &= r[q]
				}
			}
			for _, x := range acc {
				pass += bits.OnesCount64(x)
			}
		}
		sum += float64(pass) / (1 << 18)
	}
	return sum / float64(lines)
}
