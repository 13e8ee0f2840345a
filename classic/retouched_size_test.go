package classic

import (
	"testing"
	"unsafe"
)

// heldBytes is what r's slices hold: every element of their capacity.
func (r *Retouched) heldBytes() uint64 {
	held := r.f.SizeBytes()
	for _, s := range [][]uint64{r.keys, r.fps, r.off, r.ent, r.lost, r.gone} {
		held += uint64(cap(s)) * uint64(unsafe.Sizeof(s[:1][0]))
	}
	return held
}

// SizeBytes counts every byte the filter holds, the index's 8-byte
// offsets and entries at 8 bytes, before and after the index is built.
func TestRetouchedSizeBytesCountsHeldMemory(t *testing.T) {
	const n = 1e5
	r, err := NewRetouched(n, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		if got, want := r.SizeBytes(), r.heldBytes(); got != want {
			t.Errorf("%s: SizeBytes %d, the slices hold %d", when, got, want)
		}
	}
	check("empty")
	for i := uint64(0); i < n; i++ {
		r.AddUint64(i)
	}
	for i := uint64(0); i < 1000; i++ {
		r.AddFalsePositiveHash(i * 0x9e3779b97f4a7c15)
	}
	check("after adds")
	absent := uint64(n)
	for r.TestUint64(absent) == false {
		absent++
	}
	r.SelectiveClearing(keyBytes(absent), ClearRandom)
	check("with the index")
	if r.dirty {
		t.Fatal("SelectiveClearing built no index")
	}
	perKey := float64(r.SizeBytes()) / n
	t.Logf("%.1f bytes per key at n = %g with 1%% false positives recorded", perKey, float64(n))
}
