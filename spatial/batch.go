package spatial

import (
	"runtime"

	"github.com/filterengine/filterengine/asm"
)

// hashChunk is how many keys the key forms hash at a time into a stack
// buffer before handing them to the batch kernels.
const hashChunk = 256

// CheckHashes sets out[i] = CheckHash(hs[i]) and returns how many keys
// are in some area (out[i] != 0); out must be at least as long as hs. It
// runs the gather-and-minimum kernel of asm.SpatialCheckHashes.
func (f *Filter) CheckHashes(hs []uint64, out []uint16) int {
	if len(out) < len(hs) {
		panic("spatial: CheckHashes out shorter than hashes")
	}
	hits := asm.SpatialCheckHashes(f.cells, f.m, f.k, f.cellLog, hs, out)
	runtime.KeepAlive(f.storage)
	return hits
}

// CheckKeys is CheckHashes for keys hashed with Hash.
func (f *Filter) CheckKeys(keys [][]byte, out []uint16) int {
	if len(out) < len(keys) {
		panic("spatial: CheckKeys out shorter than keys")
	}
	var buf [hashChunk]uint64
	hits := 0
	for len(keys) > 0 {
		c := min(len(keys), hashChunk)
		for i, key := range keys[:c] {
			buf[i] = f.Hash(key)
		}
		hits += f.CheckHashes(buf[:c], out[:c])
		keys, out = keys[c:], out[c:]
	}
	return hits
}

// CheckUint64s answers Check for the 8 little-endian bytes of each key,
// hashing them in batch with asm.HashUint64s.
func (f *Filter) CheckUint64s(ks []uint64, out []uint16) int {
	if len(out) < len(ks) {
		panic("spatial: CheckUint64s out shorter than keys")
	}
	var buf [hashChunk]uint64
	hits := 0
	for len(ks) > 0 {
		c := min(len(ks), hashChunk)
		asm.HashUint64s(buf[:c], ks[:c], f.seed)
		hits += f.CheckHashes(buf[:c], out[:c])
		ks, out = ks[c:], out[c:]
	}
	return hits
}

// InsertHashes inserts every hash into area. Inserting raises cells by
// compare-and-swap one probe at a time (AVX2 has no scatter), so this is
// the scalar loop without the per-key area check.
func (f *Filter) InsertHashes(hs []uint64, area int) error {
	if area < 1 || area > f.areas {
		return f.areaErr(area)
	}
	for _, h := range hs {
		f.insertHash(h, uint32(area))
	}
	runtime.KeepAlive(f.storage)
	return nil
}

// InsertKeys inserts every key into area.
func (f *Filter) InsertKeys(keys [][]byte, area int) error {
	if area < 1 || area > f.areas {
		return f.areaErr(area)
	}
	for _, key := range keys {
		f.insertHash(f.Hash(key), uint32(area))
	}
	runtime.KeepAlive(f.storage)
	return nil
}

// InsertUint64s inserts the 8 little-endian bytes of every key into area.
func (f *Filter) InsertUint64s(ks []uint64, area int) error {
	if area < 1 || area > f.areas {
		return f.areaErr(area)
	}
	var buf [hashChunk]uint64
	for len(ks) > 0 {
		c := min(len(ks), hashChunk)
		asm.HashUint64s(buf[:c], ks[:c], f.seed)
		for _, h := range buf[:c] {
			f.insertHash(h, uint32(area))
		}
		ks = ks[c:]
	}
	runtime.KeepAlive(f.storage)
	return nil
}
